package io.sluice.benchmark.load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

/**
 * One self-contained HTML page comparing the systems of one workload: a table of the figures and XChart charts
 * (rates, publish and end-to-end latency percentiles, publish rate over time) embedded as PNG data. Also writes
 * the throughput and latency charts as PNG files beside it. Every chart names the machine, the JDK and the Sluice
 * version in its x-axis title and each system's server and client versions in its categories or legend; rate axes
 * start at zero, so bars and lines compare by their height. Stateless.
 */
final class ComparisonChart {

    private static final int WIDTH = 1100;
    private static final int HEIGHT = 450;

    private ComparisonChart() {
    }

    /** Writes {@code <dir>/<workload>-comparison.html} and its PNGs; returns the HTML file. */
    static Path write(String workload, List<RunResult> results, Environment environment, Path dir)
            throws IOException {
        String machine = environment.summary();
        List<String> labels = results.stream().map(RunResult::label).toList();
        CategoryChart rates = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
                .title(workload + ": throughput").xAxisTitle(machine).yAxisTitle("messages / s").build();
        rates.addSeries("publish", labels, results.stream().map(RunResult::publishRate).toList());
        rates.addSeries("consume", labels, results.stream().map(RunResult::consumeRate).toList());
        style(rates);
        rates.getStyler().setYAxisMin(0.0);

        CategoryChart publish = latencyChart(workload + ": publish latency (send call to acknowledgement)", results,
                machine, true);
        CategoryChart endToEnd = latencyChart(workload + ": end-to-end latency (born timestamp to delivery)", results,
                machine, false);

        XYChart overTime = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(workload + ": publish rate over time")
                .xAxisTitle("seconds into the measured phase; " + machine).yAxisTitle("messages / s").build();
        for (RunResult result : results) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (int i = 0; i < result.periods().size(); i++) {
                x.add((double) (i + 1) * result.periodSeconds());
                y.add(result.periods().get(i).publishRate());
            }
            if (!x.isEmpty()) {
                overTime.addSeries(result.label(), x, y);
            }
        }
        overTime.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
        overTime.getStyler().setYAxisMin(0.0);

        BitmapEncoder.saveBitmap(rates, dir.resolve(workload + "-throughput").toString(),
                BitmapEncoder.BitmapFormat.PNG);
        BitmapEncoder.saveBitmap(publish, dir.resolve(workload + "-publish-latency").toString(),
                BitmapEncoder.BitmapFormat.PNG);

        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>").append(escape(workload))
                .append(" comparison</title>\n<style>body{font-family:sans-serif;margin:2em}table{border-collapse:"
                        + "collapse}td,th{border:1px solid #999;padding:4px 8px;text-align:right}"
                        + "th:first-child,td:first-child{text-align:left}</style></head><body>\n");
        html.append("<h1>").append(escape(workload)).append("</h1>\n<p>")
                .append(escape(results.isEmpty() ? "" : results.get(0).workload().toString())).append("</p>\n<p>")
                .append(escape("Machine: " + environment.host() + ", " + machine + ", " + environment.os()))
                .append("</p>\n");
        html.append(table(results));
        for (Chart<?, ?> chart : List.of(rates, publish, endToEnd, overTime)) {
            byte[] png = BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
            html.append("<p><img alt=\"chart\" src=\"data:image/png;base64,")
                    .append(Base64.getEncoder().encodeToString(png)).append("\"></p>\n");
        }
        html.append("<h2>Settings</h2>\n");
        for (RunResult result : results) {
            html.append("<h3>").append(escape(result.label())).append("</h3>\n<ul>\n");
            result.settings().forEach((key, value) -> html.append("<li><b>").append(escape(key)).append("</b>: ")
                    .append(escape(value)).append("</li>\n"));
            html.append("</ul>\n");
        }
        html.append("</body></html>\n");
        Path file = dir.resolve(workload + "-comparison.html");
        Files.writeString(file, html.toString(), StandardCharsets.UTF_8);
        return file;
    }

    /** The figures as a Markdown table (also printed by the harness). */
    static String markdownTable(List<RunResult> results) {
        StringBuilder text = new StringBuilder("| system | publish msg/s | consume msg/s | publish p50 / p99 / p99.9 / "
                + "max ms | end-to-end p50 / p99 / p99.9 ms | dispatch lag p50 / p99 / max ms | dispatch lag p50 / p99 "
                + "/ max bytes | lag samples (failed) | final backlog | errors |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (RunResult r : results) {
            text.append(String.format(Locale.ROOT, "| %s | %,.0f | %,.0f"
                    + " | %.2f / %.2f / %.2f / %.2f | %.2f / %.2f / %.2f "
                            + "| %s | %s | %s | %,d | %d |%n", r.label(), r.publishRate(), r.consumeRate(),
                    r.publishLatency().p50(), r.publishLatency().p99(), r.publishLatency().p999(),
                    r.publishLatency().max(), r.endToEndLatency().p50(), r.endToEndLatency().p99(),
                    r.endToEndLatency().p999(), lagFigures(r, DispatchLag::ms), lagFigures(r, DispatchLag::bytes),
                    lagSamples(r), r.backlog(), r.sendErrors()));
        }
        return text.toString();
    }

    private static CategoryChart latencyChart(String title, List<RunResult> results, String machine,
                                              boolean publish) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle(machine).yAxisTitle("milliseconds").build();
        List<String> percentiles = List.of("p50", "p99", "p99.9");
        for (RunResult result : results) {
            RunResult.Latency latency = publish ? result.publishLatency() : result.endToEndLatency();
            chart.addSeries(result.label(), percentiles, List.of(latency.p50(), latency.p99(), latency.p999()));
        }
        style(chart);
        return chart;
    }

    private static void style(CategoryChart chart) {
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setLabelsVisible(true);
        chart.getStyler().setDecimalPattern("#,##0.##");
    }

    private static String table(List<RunResult> results) {
        StringBuilder html = new StringBuilder("<table>\n<tr><th>system</th><th>publish msg/s</th><th>consume msg/s"
                + "</th><th>publish p50 ms</th><th>p99</th><th>p99.9</th><th>max</th><th>end-to-end p50 ms</th>"
                + "<th>p99</th><th>p99.9</th><th>dispatch lag p50 / p99 / max ms</th><th>dispatch lag p50 / p99 / "
                + "max bytes</th><th>lag samples (failed)</th><th>final backlog</th><th>send errors</th></tr>\n");
        for (RunResult r : results) {
            html.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%,.0f</td><td>%,.0f</td><td>%.2f</td>"
                            + "<td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%.2f</td>"
                            + "<td>%s</td><td>%s</td><td>%s</td><td>%,d</td><td>%d</td></tr>%n", escape(r.label()),
                    r.publishRate(), r.consumeRate(), r.publishLatency().p50(), r.publishLatency().p99(),
                    r.publishLatency().p999(), r.publishLatency().max(), r.endToEndLatency().p50(),
                    r.endToEndLatency().p99(), r.endToEndLatency().p999(), lagFigures(r, DispatchLag::ms),
                    lagFigures(r, DispatchLag::bytes), lagSamples(r), r.backlog(), r.sendErrors()));
        }
        return html.append("</table>\n").toString();
    }

    /** {@code p50 / p99 / max} of one dispatch lag unit, or {@code -} when the system did not report it. */
    private static String lagFigures(RunResult r, Function<DispatchLag, Optional<DispatchLag.Figures>> unit) {
        return r.dispatchLag().flatMap(unit).map(f -> String.format(Locale.ROOT, "%,d / %,d / %,d", f.p50(), f.p99(),
                f.max())).orElse("-");
    }

    /** Successful samples and, in brackets, failed ones; {@code -} when the system was not sampled. */
    private static String lagSamples(RunResult r) {
        return r.dispatchLag().map(lag -> String.format(Locale.ROOT, "%,d (%,d)", lag.samples(), lag.failures()))
                .orElse("-");
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
