package org.loadlab.app.cli;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Progress of a {@code simulate} job for a person waiting on it: every
 * {@code periodSeconds} during the first minute (only once the job has taken that long), then
 * once a minute, one line on stderr with the runs done, how far the running runs are
 * (requests generated of those expected) and an estimate of the time left. Short jobs print
 * nothing extra. Thread-safe.
 */
final class RunProgress implements AutoCloseable {
    private final int total;
    private final double requestsPerRun;
    private final PrintStream out;
    private final long startNanos = System.nanoTime();
    private final AtomicInteger done = new AtomicInteger();
    private final Map<Object, LongSupplier> running = new ConcurrentHashMap<>();
    private final ScheduledExecutorService ticker;
    private long lastPrintNanos;

    /**
     * @param total runs of the job
     * @param requestsPerRun expected requests of one run (0 if unknown)
     * @param periodSeconds seconds between lines, > 0
     * @param out where lines go (stderr)
     */
    RunProgress(int total, double requestsPerRun, double periodSeconds, PrintStream out) {
        this.total = total;
        this.requestsPerRun = requestsPerRun;
        this.out = out;
        this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "loadlab-progress");
            t.setDaemon(true);
            return t;
        });
        long period = (long) (periodSeconds * 1000);
        ticker.scheduleAtFixedRate(this::print, period, period, TimeUnit.MILLISECONDS);
    }

    /** A run started; {@code generated} reads its requests so far. */
    void started(Object run, LongSupplier generated) {
        running.put(run, generated);
    }

    /** A run finished. */
    void finished(Object run) {
        running.remove(run);
        done.incrementAndGet();
    }

    /** Runs finished so far. */
    int done() {
        return done.get();
    }

    /** The line printed now (visible for tests). */
    String line() {
        double elapsed = (System.nanoTime() - startNanos) / 1e9;
        int finished = done.get();
        double partial = 0;
        if (requestsPerRun > 0) {
            for (LongSupplier g : running.values()) {
                partial += Math.min(1.0, g.getAsLong() / requestsPerRun);
            }
        }
        double progress = (finished + partial) / Math.max(1, total);
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "  ... %s elapsed: %d of %s done",
                duration(elapsed), finished, Plural.count(total, "run", "runs")));
        if (partial > 0) {
            b.append(String.format(Locale.ROOT, " (%.0f%% of all work)", 100 * progress));
        }
        if (progress > 0.01) {
            b.append(", about ").append(duration(elapsed * (1 - progress) / progress)).append(" left");
        }
        return b.toString();
    }

    private void print() {
        long now = System.nanoTime();
        if (now - startNanos > 65_000_000_000L && now - lastPrintNanos < 59_000_000_000L) {
            return; // after the first minute, one line a minute is enough
        }
        lastPrintNanos = now;
        out.println(line());
    }

    static String duration(double seconds) {
        if (seconds < 90) {
            return String.format(Locale.ROOT, "%.0f s", seconds);
        }
        if (seconds < 5400) {
            return String.format(Locale.ROOT, "%.0f min", seconds / 60);
        }
        return String.format(Locale.ROOT, "%.1f h", seconds / 3600);
    }

    @Override
    public void close() {
        ticker.shutdownNow();
    }
}
