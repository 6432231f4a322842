package org.loadlab.node.sharing;

/**
 * Parameters of the load-sharing agents of one run (scenario block {@code load-sharing},
 * documented in docs/scenarios.md and docs/load-sharing.md). Times are seconds, costs are
 * work units of CPU (a cost of w takes w/μ_j seconds of the node's server).
 *
 * <p>Queue length q counts the tasks waiting plus in service at a node. With threshold T, a
 * node is a <em>sender</em> when q &gt; T, a <em>receiver</em> when q &lt; T and <em>OK</em>
 * when q = T (the transfer policy of Eager, Lazowska and Zahorjan 1986 and of the slides: a
 * new task that makes q &gt; T is a candidate for transfer; a peer with q &lt; T may take it).
 *
 * @param threshold T, queue-length threshold, ≥ 1 (SPEC §7 default 2)
 * @param pollLimit Lp, most peers polled per round, ≥ 1 (default 3; capped at n − 1)
 * @param pollLatency extra one-way delay of every load-sharing control message (polls,
 *     replies, TooHigh, Accept, ...), on top of the network latency, seconds ≥ 0
 * @param pollTimeout seconds a poller waits for a reply before counting the poll as failed
 *     (a crashed peer never answers), &gt; 0
 * @param transferDelay extra time a transferred task spends in transit, on top of the
 *     network latency, seconds ≥ 0
 * @param transferCost CPU work the sending node spends per transfer, work units ≥ 0
 * @param pollCost CPU work a poll costs the poller and the polled node (each), work units ≥ 0
 * @param maxTransfers most times one task may be transferred, ≥ 1 (default 1)
 * @param retryPeriod receiver-initiated: seconds before a receiver whose polls all failed
 *     tries again (if it is still a receiver), &gt; 0
 * @param aboveAverage parameters of the above-average protocol
 *     <p>Source: SPEC.md §7; the slides (seed 002).
 */
public record SharingSettings(int threshold, int pollLimit, double pollLatency, double pollTimeout,
                              double transferDelay, double transferCost, double pollCost, int maxTransfers,
                              double retryPeriod, AboveAverage aboveAverage) {

    /**
     * Krueger–Finkel above-average parameters. Load is q plus the tasks a node has accepted
     * but not yet received; the acceptable range is [A − range, A + range] around the node's
     * estimate A of the average load.
     *
     * @param range half-width of the acceptable range, tasks, &gt; 0
     * @param initialAverage every node's first estimate A, tasks ≥ 0
     * @param averageStep how far a ChangeAverage moves A, tasks, &gt; 0
     * @param tooHighTimeout seconds a sender waits for an Accept before broadcasting
     *     ChangeAverage(up), &gt; 0
     * @param tooLowTimeout seconds a receiver waits for a TooHigh before broadcasting
     *     ChangeAverage(down), &gt; 0
     * @param awaitingTaskTimeout seconds a receiver keeps the slot it promised in an Accept;
     *     a task arriving later is sent back, &gt; 0
     */
    public record AboveAverage(double range, double initialAverage, double averageStep, double tooHighTimeout,
                               double tooLowTimeout, double awaitingTaskTimeout) {
        /** Validates. @throws IllegalArgumentException naming the field, its value and what is allowed */
        public AboveAverage {
            positive("load-sharing.above-average.acceptable-range", range);
            nonNegative("load-sharing.above-average.initial-average", initialAverage);
            positive("load-sharing.above-average.average-step", averageStep);
            positive("load-sharing.above-average.too-high-timeout", tooHighTimeout);
            positive("load-sharing.above-average.too-low-timeout", tooLowTimeout);
            positive("load-sharing.above-average.awaiting-task-timeout", awaitingTaskTimeout);
        }

        /** Defaults: range 1, initial average 1, step 0.5, TooHigh and TooLow timeouts 0.05 s, AwaitingTask 0.1 s. */
        public static AboveAverage defaults() {
            return new AboveAverage(1.0, 1.0, 0.5, 0.05, 0.05, 0.1);
        }
    }

    /** Validates. @throws IllegalArgumentException naming the field, its value and what is allowed */
    public SharingSettings {
        if (threshold < 1) {
            throw new IllegalArgumentException("load-sharing.threshold = " + threshold + ": must be >= 1 (tasks)");
        }
        if (pollLimit < 1) {
            throw new IllegalArgumentException("load-sharing.poll-limit = " + pollLimit + ": must be >= 1 (polls)");
        }
        nonNegative("load-sharing.poll-latency", pollLatency);
        positive("load-sharing.poll-timeout", pollTimeout);
        nonNegative("load-sharing.transfer-delay", transferDelay);
        nonNegative("load-sharing.transfer-cost", transferCost);
        nonNegative("load-sharing.poll-cost", pollCost);
        if (maxTransfers < 1) {
            throw new IllegalArgumentException("load-sharing.max-transfers = " + maxTransfers + ": must be >= 1");
        }
        positive("load-sharing.retry-period", retryPeriod);
        if (aboveAverage == null) {
            throw new IllegalArgumentException("load-sharing.above-average: missing");
        }
    }

    /**
     * SPEC §7 defaults: T = 2, Lp = 3, poll latency 1 ms, poll timeout 50 ms, transfer delay
     * 10 ms, no costs, one transfer per task, retry after 1 s.
     */
    public static SharingSettings defaults() {
        return new SharingSettings(2, 3, 0.001, 0.05, 0.01, 0, 0, 1, 1.0, AboveAverage.defaults());
    }

    private static void positive(String key, double v) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(key + " = " + v + ": must be a finite number > 0");
        }
    }

    private static void nonNegative(String key, double v) {
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(key + " = " + v + ": must be a finite number >= 0");
        }
    }
}
