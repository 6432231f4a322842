package org.loadlab.balancer.lints;

/**
 * The context of one node in seed 003's LinTS (d = 6): x = [1, min(1, cpu/100),
 * min(1.5, queue/20), min(2, p99/200), min(2, globalRate/150), clip(rateChange/50, −2, 2)].
 *
 * <p>Source: seed 003 ({@code agent.py}, {@code _build_context_vector}), SPEC.md §6.
 */
public final class ContextVector {
    private ContextVector() {
    }

    /** Context dimension d. */
    public static final int DIMENSION = 6;

    /**
     * @param cpuPercent the node's CPU, percent
     * @param queue requests at the node
     * @param p99Ms the node's recent p99 latency, ms
     * @param globalRate requests/s over every balancer
     * @param rateChange change of the global rate since the previous update, requests/s per second
     * @return a new array of length {@link #DIMENSION}
     */
    public static double[] of(double cpuPercent, double queue, double p99Ms, double globalRate, double rateChange) {
        return new double[] {
            1.0,
            Math.min(1.0, cpuPercent / 100.0),
            Math.min(1.5, queue / 20.0),
            Math.min(2.0, p99Ms / 200.0),
            Math.min(2.0, globalRate / 150.0),
            Math.max(-2.0, Math.min(2.0, rateChange / 50.0))};
    }
}
