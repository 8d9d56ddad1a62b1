package io.sluice.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A text table for {@code sluice admin}: a header row and data rows, columns padded to their widest cell and
 * separated by two spaces; numbers are right-aligned. Not thread-safe; build and print on one thread.
 */
final class Table {

    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    Table(String... header) {
        this.header = List.of(header);
    }

    /** Adds a row; its cells are printed with {@link String#valueOf(Object)}. */
    Table row(Object... cells) {
        if (cells.length != header.size()) {
            throw new IllegalArgumentException("a row of " + cells.length + " cells for " + header.size()
                    + " columns: " + Arrays.toString(cells));
        }
        rows.add(Arrays.stream(cells).map(String::valueOf).toList());
        return this;
    }

    int size() {
        return rows.size();
    }

    /** Prints the header, then every row. */
    void print(PrintStream out) {
        int[] widths = new int[header.size()];
        boolean[] numeric = new boolean[header.size()];
        Arrays.fill(numeric, !rows.isEmpty());
        for (int c = 0; c < widths.length; c++) {
            widths[c] = header.get(c).length();
            for (List<String> row : rows) {
                widths[c] = Math.max(widths[c], row.get(c).length());
                numeric[c] &= row.get(c).matches("-?[0-9][0-9,.]*");
            }
        }
        out.println(line(header, widths, new boolean[widths.length]));
        for (List<String> row : rows) {
            out.println(line(row, widths, numeric));
        }
        out.flush();
    }

    private static String line(List<String> cells, int[] widths, boolean[] rightAligned) {
        StringBuilder text = new StringBuilder();
        for (int c = 0; c < cells.size(); c++) {
            String cell = cells.get(c);
            String pad = " ".repeat(widths[c] - cell.length());
            if (c > 0) {
                text.append("  ");
            }
            text.append(rightAligned[c] ? pad + cell : cell + (c == cells.size() - 1 ? "" : pad));
        }
        return text.toString();
    }
}
