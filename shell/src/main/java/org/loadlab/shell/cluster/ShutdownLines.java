package org.loadlab.shell.cluster;

import java.nio.file.Path;
import java.time.Duration;

/**
 * What the gateway says on standard error about each experiment it was running when its
 * member shut down ({@link Gateway.StopAll}): stopped with its results and journal entry, or,
 * when the shutdown's time ran out, what is left undone. docs/cluster.md ("Stopping a
 * gateway") describes the same outcomes.
 */
final class ShutdownLines {
    private ShutdownLines() {
    }

    /** The setting that bounds the stop. */
    static final String TIMEOUT_KEY = "loadlab.cluster.shutdown-timeout";

    /**
     * An experiment that was stopped in time.
     *
     * @param id experiment id
     * @param journaled the status its journal entry ended with (stopped, or failed when its conservation check
     *     failed), or null when the journal is off or unavailable
     * @param error its error, or null
     * @param results its result directory, or null if it wrote no files (stopped before it started)
     * @param journalState the gateway's journal: "ready", "off" or why it is unavailable
     */
    static String stopped(String id, String journaled, String error, Path results, String journalState) {
        StringBuilder b = new StringBuilder("experiment ").append(id).append(' ');
        if (journaled == null || journaled.equals("stopped")) {
            b.append("stopped");
        } else {
            b.append("ended ").append(journaled);
            if (error != null && !error.isEmpty()) {
                b.append(" (").append(error).append(')');
            }
        }
        b.append(results != null ? "; its results so far are in " + results
                : "; it had not started, so nothing was measured and no result files were written");
        if (journaled != null) {
            b.append("; journaled as ").append(journaled);
        } else {
            b.append("; not journaled (journal ").append(journalState == null ? "not open yet" : journalState).append(')');
        }
        return b.toString();
    }

    /**
     * An experiment whose run did not end within the shutdown's time: its members' last
     * observations (or its finish) did not come in time.
     *
     * @param id experiment id
     * @param within the shutdown's time
     * @param checkpointInterval how often its status was journaled
     */
    static String notStopped(String id, Duration within, Duration checkpointInterval) {
        return "experiment " + id + " could not be stopped within " + seconds(within) + " (" + TIMEOUT_KEY + "; its members'"
                + " last observations or its files were not done): it goes on stopping while the member leaves, but unless it"
                + " ends before the JVM exits it has no result files and is left interrupted in the journal with its last"
                + " checkpoint (taken every " + seconds(checkpointInterval) + "); a new gateway on the same results directory"
                + " lists it, and POST /experiments/" + id + "/rerun runs it again";
    }

    /**
     * An experiment that was stopped but whose end the journal did not confirm in time.
     *
     * @param id experiment id
     * @param results its result directory, or null
     * @param within the shutdown's time
     */
    static String notJournaled(String id, Path results, Duration within) {
        return "experiment " + id + " was stopped" + (results != null ? " and its results so far written to " + results : "")
                + ", but the journal did not confirm its end within " + seconds(within) + " (" + TIMEOUT_KEY + "): a new gateway"
                + " may list it as interrupted with its last checkpoint";
    }

    /**
     * An experiment reported by {@link #notStopped} whose stop then ended while the member was
     * still leaving the cluster.
     *
     * @param id experiment id
     * @param results its result directory, or null if it wrote none
     */
    static String stoppedLate(String id, Path results) {
        return "experiment " + id + " was stopped after all, after " + TIMEOUT_KEY + (results != null
                ? ": its results so far are in " + results : ": it wrote no result files") + "; its end was sent to the"
                + " journal, but not confirmed: a new gateway lists it as stopped, or as interrupted if the JVM exited first";
    }

    private static String seconds(Duration d) {
        return d.toMillis() / 1000.0 + " s";
    }
}
