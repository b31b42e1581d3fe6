package dev.streamwright.peer.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The one-line JSON result a peer prints when its last record is processed: {@code records},
 * {@code elapsedMs} (from the start of the application to the last record, as Kafka's
 * SimpleBenchmark times it), {@code recordsPerSec}, and what else the program knows (the plain
 * loop's distinct keys and windows). The harness measures this process's CPU time when it reads
 * the line, so nothing is printed on stdout before it.
 */
final class BenchResult {
    private final Map<String, Object> fields = new LinkedHashMap<>();

    BenchResult(final long records, final long elapsedNanos) {
        final double ms = elapsedNanos / 1e6;
        fields.put("records", records);
        fields.put("elapsedMs", round(ms));
        fields.put("recordsPerSec", round(records / (ms / 1000.0)));
    }

    BenchResult with(final String name, final Object value) {
        fields.put(name, value);
        return this;
    }

    /**
     * Prints the line and, with {@code --pause-at-end}, waits for a line on stdin: the harness
     * reads /proc/PID/stat in between, so closing the application is not counted in its CPU time.
     */
    void printAndPause(final BenchOptions options) throws IOException {
        final StringBuilder out = new StringBuilder("{");
        for (final Map.Entry<String, Object> e : fields.entrySet()) {
            if (out.length() > 1) out.append(',');
            out.append('"').append(e.getKey()).append("\":");
            final Object v = e.getValue();
            if (v instanceof Number || v instanceof Boolean) out.append(v);
            else out.append('"').append(String.valueOf(v).replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
        }
        System.out.println(out.append('}'));
        System.out.flush();
        if (options.pauseAtEnd) {
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        }
    }

    private static double round(final double v) {
        return Double.parseDouble(String.format(Locale.ROOT, "%.1f", v));
    }
}
