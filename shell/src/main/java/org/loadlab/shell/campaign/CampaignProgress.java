package org.loadlab.shell.campaign;

import java.io.PrintStream;
import java.util.Locale;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Shows how far a campaign is: a progress bar (runs done / total, rate, ETA) on a
 * terminal, plain log lines when output goes to a file or pipe: one every 10% of the runs,
 * and one whenever a run is stored 10 s or more after the last line (or the start). Thread-safe.
 */
final class CampaignProgress implements AutoCloseable {
    private final ProgressBar bar;
    private final PrintStream log;
    private final int total;
    private final long startNanos;
    private final int startDone;
    private volatile int done; // volatile: the bar's render thread reads it through eta() without the lock
    private long lastLogNanos;
    private int lastLogDone;

    /**
     * @param name campaign id shown with the bar
     * @param total runs in the campaign
     * @param alreadyDone runs finished before this process started (resume)
     * @param startNanos {@link System#nanoTime()} when the campaign started, before the journal
     *     opened: runs are prefetched from then on, so the rate counts from then (as the final
     *     summary's runs/s does), not from the first stored run
     * @param out where plain lines go when there is no terminal
     * @param terminal whether a terminal is attached
     */
    CampaignProgress(String name, int total, int alreadyDone, long startNanos, PrintStream out, boolean terminal) {
        this.total = total;
        this.startNanos = startNanos;
        this.done = alreadyDone;
        this.startDone = alreadyDone;
        this.lastLogDone = alreadyDone;
        // The 10 s between lines count from the start too: the first run stored, seconds after
        // the start while the journal opened, would otherwise print a line whose rate (one run
        // over the start-up) promises an ETA of half an hour for a campaign done a second later.
        this.lastLogNanos = startNanos;
        if (terminal) {
            // The bar's own speed and ETA count from its creation, after the runs prefetched while
            // the journal opened: this class's rate() and eta() count from the campaign's start,
            // and so does the elapsed time it shows.
            this.bar = new ProgressBarBuilder().setTaskName(name).setInitialMax(total).setStyle(ProgressBarStyle.ASCII)
                    .setUnit(" runs", 1).startsFrom(alreadyDone, java.time.Duration.ofNanos(System.nanoTime() - startNanos))
                    .setEtaFunction(state -> eta(System.nanoTime()))
                    .setMaxRenderedLength(100).build();
            this.log = null;
        } else {
            this.bar = null;
            this.log = out;
            out.printf(Locale.ROOT, "%s: %d of %d runs already done%n", name, alreadyDone, total);
        }
    }

    /** Runs finished by this process per second since the campaign started (as the final summary counts). */
    double rate(long nowNanos) {
        return (done - startDone) / Math.max((nowNanos - startNanos) / 1e9, 1e-9);
    }

    /** Time left at {@link #rate(long)}; empty before the first run is stored. */
    java.util.Optional<java.time.Duration> eta(long nowNanos) {
        double rate = rate(nowNanos);
        return rate > 0 ? java.util.Optional.of(java.time.Duration.ofMillis(Math.round((total - done) / rate * 1000)))
                : java.util.Optional.empty();
    }

    /** One more run is stored; returns the runs done now. */
    synchronized int step() {
        done++;
        long now = System.nanoTime();
        if (bar != null) {
            bar.stepTo(done);
            bar.setExtraMessage(String.format(Locale.ROOT, " %.1f runs/s", rate(now)));
            return done;
        }
        if (done == total || now - lastLogNanos > 10_000_000_000L || done - lastLogDone >= Math.max(1, total / 10)) {
            double rate = rate(now);
            double eta = rate > 0 ? (total - done) / rate : Double.NaN;
            log.printf(Locale.ROOT, "  %d/%d runs (%.0f%%), %.1f runs/s, ETA %.0f s%n", done, total, 100.0 * done / total, rate, eta);
            lastLogNanos = now;
            lastLogDone = done;
        }
        return done;
    }

    @Override
    public synchronized void close() {
        if (bar != null) {
            bar.close();
        }
    }
}
