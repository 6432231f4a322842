package org.loadlab.shell.campaign;

import java.io.PrintStream;
import java.util.Locale;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Shows how far a campaign is: a progress bar (runs done / total, rate, ETA) on a
 * terminal, plain log lines (at most every 10 s or 10% of the runs) when output goes to a
 * file or pipe. Thread-safe.
 */
final class CampaignProgress implements AutoCloseable {
    private final ProgressBar bar;
    private final PrintStream log;
    private final int total;
    private final long startNanos = System.nanoTime();
    private final int startDone;
    private int done;
    private long lastLogNanos;
    private int lastLogDone;

    /**
     * @param name campaign id shown with the bar
     * @param total runs in the campaign
     * @param alreadyDone runs finished before this process started (resume)
     * @param out where plain lines go when there is no terminal
     * @param terminal whether a terminal is attached
     */
    CampaignProgress(String name, int total, int alreadyDone, PrintStream out, boolean terminal) {
        this.total = total;
        this.done = alreadyDone;
        this.startDone = alreadyDone;
        this.lastLogDone = alreadyDone;
        if (terminal) {
            this.bar = new ProgressBarBuilder().setTaskName(name).setInitialMax(total).setStyle(ProgressBarStyle.ASCII)
                    .setUnit(" runs", 1).showSpeed().setMaxRenderedLength(100).build();
            this.bar.stepTo(alreadyDone);
            this.log = null;
        } else {
            this.bar = null;
            this.log = out;
            out.printf(Locale.ROOT, "%s: %d of %d runs already done%n", name, alreadyDone, total);
        }
    }

    /** One more run is stored. */
    synchronized void step() {
        done++;
        if (bar != null) {
            bar.stepTo(done);
            return;
        }
        long now = System.nanoTime();
        if (done == total || now - lastLogNanos > 10_000_000_000L || done - lastLogDone >= Math.max(1, total / 10)) {
            double seconds = (now - startNanos) / 1e9;
            double rate = (done - startDone) / Math.max(seconds, 1e-9);
            double eta = rate > 0 ? (total - done) / rate : Double.NaN;
            log.printf(Locale.ROOT, "  %d/%d runs (%.0f%%), %.1f runs/s, ETA %.0f s%n", done, total, 100.0 * done / total, rate, eta);
            lastLogNanos = now;
            lastLogDone = done;
        }
    }

    @Override
    public synchronized void close() {
        if (bar != null) {
            bar.close();
        }
    }
}
