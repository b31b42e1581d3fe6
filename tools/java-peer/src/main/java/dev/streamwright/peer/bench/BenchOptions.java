package dev.streamwright.peer.bench;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The command line shared by the benchmark peers ({@link SimpleBenchmark}, {@link PlainClientLoop}):
 * {@code --bootstrap-servers HOST:PORT --topic SOURCE --records N --case CASE --guarantee G
 * --threads T [--sink TOPIC] [--application-id ID] [--state-dir DIR] [--pause-at-end]}.
 * Bad input exits with a message naming the option, so a harness sees what it got wrong.
 */
final class BenchOptions {
    static final Set<String> CASES =
        Set.of("streamprocess", "streamprocesswithsink", "streamcount", "streamcountwindowed");
    static final Set<String> GUARANTEES = Set.of("at_least_once", "exactly_once_v2");

    final String bootstrapServers;
    final String topic;
    final String sink;
    final long records;
    final String benchCase;
    final String guarantee;
    final int threads;
    final String applicationId;
    final String stateDir;
    /** After the result line, wait for a line on stdin (the harness reads our CPU time meanwhile). */
    final boolean pauseAtEnd;

    private BenchOptions(final Map<String, String> values, final boolean pauseAtEnd, final String program) {
        this.bootstrapServers = required(values, "bootstrap-servers");
        this.topic = values.getOrDefault("topic", "simpleBenchmarkSourceTopic");
        this.sink = values.getOrDefault("sink", "simpleBenchmarkSinkTopic");
        this.records = positive(values, "records");
        this.benchCase = oneOf(values, "case", CASES);
        this.guarantee = oneOf(values, "guarantee", GUARANTEES);
        this.threads = (int) positive(values, "threads");
        this.applicationId = values.getOrDefault(
            "application-id", program + "-" + benchCase + "-" + System.currentTimeMillis());
        this.stateDir = values.get("state-dir");
        this.pauseAtEnd = pauseAtEnd;
    }

    static BenchOptions parse(final String[] args, final String program) {
        final Map<String, String> values = new HashMap<>();
        boolean pause = false;
        for (int i = 0; i < args.length; i++) {
            final String arg = args[i];
            if (arg.equals("--pause-at-end")) {
                pause = true;
            } else if (arg.startsWith("--") && i + 1 < args.length) {
                values.put(arg.substring(2), args[++i]);
            } else {
                throw fail("unexpected argument '" + arg + "' (options are --name value pairs)");
            }
        }
        final Set<String> known = Set.of("bootstrap-servers", "topic", "sink", "records", "case",
            "guarantee", "threads", "application-id", "state-dir");
        for (final String name : values.keySet()) {
            if (!known.contains(name)) throw fail("unknown option --" + name + "; known: " + known);
        }
        return new BenchOptions(values, pause, program);
    }

    boolean sinkCase() {
        return benchCase.equals("streamprocesswithsink");
    }

    boolean exactlyOnce() {
        return guarantee.equals("exactly_once_v2");
    }

    private static String required(final Map<String, String> values, final String name) {
        final String v = values.get(name);
        if (v == null || v.isBlank()) throw fail("--" + name + " is required");
        return v;
    }

    private static long positive(final Map<String, String> values, final String name) {
        final String v = required(values, name);
        try {
            final long n = Long.parseLong(v);
            if (n > 0) return n;
        } catch (final NumberFormatException e) {
            // reported below
        }
        throw fail("--" + name + " must be a positive integer, got '" + v + "'");
    }

    private static String oneOf(final Map<String, String> values, final String name, final Set<String> allowed) {
        final String v = required(values, name).toLowerCase(Locale.ROOT);
        if (!allowed.contains(v)) throw fail("--" + name + " must be one of " + allowed + ", got '" + v + "'");
        return v;
    }

    private static IllegalArgumentException fail(final String message) {
        return new IllegalArgumentException(message);
    }
}
