package io.sluice.benchmark.load;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Where a run took place: machine (host, CPU model, cores, memory, OS), JDK and Sluice version. Written into every
 * JSON result and onto every chart, since a figure without its machine cannot be compared. Immutable.
 *
 * @param host     host name
 * @param cpu      CPU model ({@code /proc/cpuinfo}), or the architecture where that is not readable
 * @param cores    processors the JVM sees
 * @param memory   physical memory ({@code /proc/meminfo}), or "unknown"
 * @param os       operating system name and version
 * @param jdk      the JVM's vendor and runtime version (every peer runs on the same java)
 * @param sluice   the Sluice version (jar manifest), or "development build"
 */
record Environment(String host, String cpu, int cores, String memory, String os, String jdk, String sluice) {

    /** This JVM's environment. */
    static Environment current() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "unknown (" + e.getMessage() + ")";
        }
        return new Environment(host,
                procValue("/proc/cpuinfo", "model name").orElse(System.getProperty("os.arch")),
                Runtime.getRuntime().availableProcessors(),
                procValue("/proc/meminfo", "MemTotal").map(Environment::gibibytes).orElse("unknown"),
                System.getProperty("os.name") + " " + System.getProperty("os.version"),
                System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version"),
                sluiceVersion());
    }

    /** The Sluice version of the harness's own jars (the Sluice peer runs on them), or "development build". */
    static String sluiceVersion() {
        String version = Environment.class.getPackage().getImplementationVersion();
        return version == null ? "development build" : version;
    }

    /** One line for chart titles and page headers. */
    String summary() {
        return String.format(Locale.ROOT, "%s, %d cores, %s RAM; JDK %s; Sluice %s", cpu, cores, memory, jdk, sluice);
    }

    Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("host", host);
        json.put("cpu", cpu);
        json.put("cores", cores);
        json.put("memory", memory);
        json.put("os", os);
        json.put("jdk", jdk);
        json.put("sluiceVersion", sluice);
        return json;
    }

    /** The value of the first {@code key: value} line of a /proc file, if readable. */
    private static Optional<String> procValue(String file, String key) {
        try {
            List<String> lines = Files.readAllLines(Path.of(file), StandardCharsets.UTF_8);
            return lines.stream().filter(line -> line.startsWith(key)).findFirst()
                    .map(line -> line.substring(line.indexOf(':') + 1).strip());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** "24597212 kB" as "23.5 GiB". */
    private static String gibibytes(String meminfoValue) {
        String digits = meminfoValue.replaceAll("[^0-9]", "");
        if (digits.isEmpty()) {
            return meminfoValue;
        }
        return String.format(Locale.ROOT, "%.1f GiB", Long.parseLong(digits) / 1024.0 / 1024.0);
    }
}
