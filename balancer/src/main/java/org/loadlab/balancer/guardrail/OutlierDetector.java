package org.loadlab.balancer.guardrail;

import java.util.Locale;
import org.loadlab.node.protocol.ResponseStatus;

/**
 * One balancer's passive outlier detection state ({@link OutlierDetection}): per node its run
 * of consecutive failures, its successes and attempts in the current interval, and its
 * ejection multiplier. Pure state: the balancer reports every attempt's outcome and ticks the
 * interval, and puts the ejections it is told about into the guardrails' ledger.
 *
 * <p>Source: Envoy outlier detection ({@code DetectorImpl}: consecutive 5xx, success-rate
 * ejection, ejection time = base × ejections, multiplier decay).
 */
public final class OutlierDetector {
    private final OutlierDetection settings;
    private final int[] consecutive;
    private final int[] successes;
    private final int[] attempts;
    private final int[] ejections;

    /**
     * @param settings the outlier detection settings
     * @param nodeCount n
     */
    public OutlierDetector(OutlierDetection settings, int nodeCount) {
        this.settings = settings;
        this.consecutive = new int[nodeCount];
        this.successes = new int[nodeCount];
        this.attempts = new int[nodeCount];
        this.ejections = new int[nodeCount];
    }

    /** The settings. */
    public OutlierDetection settings() {
        return settings;
    }

    /**
     * An attempt at {@code node} ended with {@code status}.
     *
     * @return the reason to eject the node now (its run of failures reached the threshold), or null
     */
    public String record(int node, ResponseStatus status) {
        attempts[node]++;
        if (!status.nodeFailure()) {
            successes[node]++;
            consecutive[node] = 0;
            return null;
        }
        int run = ++consecutive[node];
        int threshold = settings.consecutiveErrors();
        if (threshold > 0 && run >= threshold) {
            consecutive[node] = 0;
            return "outlier: " + run + " consecutive failures";
        }
        return null;
    }

    /**
     * The node is being ejected: counts the ejection and returns how long it lasts.
     *
     * @return seconds of ejection (base × ejections so far, capped)
     */
    public double ejected(int node) {
        ejections[node]++;
        return settings.ejectionTime(ejections[node]);
    }

    /** Times the node has been ejected, less one per healthy interval since. */
    public int ejections(int node) {
        return ejections[node];
    }

    /**
     * Ends an interval: runs the success-rate test over {@code nodes}, decays the ejection
     * multiplier of nodes not ejected now, and clears the interval's counts.
     *
     * @param nodes the nodes to judge (the allowed ones)
     * @param ejectedNow true for a node currently ejected (it keeps its multiplier)
     * @param out receives the nodes to eject with their reason: out[i] = reason for nodes[i], or null
     */
    public void endInterval(int[] nodes, java.util.function.IntPredicate ejectedNow, String[] out) {
        java.util.Arrays.fill(out, null);
        if (settings.successRate()) {
            int judged = 0;
            double sum = 0;
            double sumSq = 0;
            for (int node : nodes) {
                if (attempts[node] >= settings.successRateRequestVolume()) {
                    double rate = (double) successes[node] / attempts[node];
                    judged++;
                    sum += rate;
                    sumSq += rate * rate;
                }
            }
            if (judged >= settings.successRateMinimumHosts()) {
                double mean = sum / judged;
                double stdev = Math.sqrt(Math.max(0, sumSq / judged - mean * mean));
                double limit = mean - settings.successRateStdevFactor() * stdev;
                for (int i = 0; i < nodes.length; i++) {
                    int node = nodes[i];
                    if (attempts[node] >= settings.successRateRequestVolume()) {
                        double rate = (double) successes[node] / attempts[node];
                        if (rate < limit) {
                            out[i] = String.format(Locale.ROOT, "outlier: success rate %.3f < %.3f (mean %.3f - %.2f sd)",
                                    rate, limit, mean, settings.successRateStdevFactor());
                        }
                    }
                }
            }
        }
        for (int node : nodes) {
            if (!ejectedNow.test(node) && ejections[node] > 0) {
                ejections[node]--;
            }
            successes[node] = 0;
            attempts[node] = 0;
        }
    }
}
