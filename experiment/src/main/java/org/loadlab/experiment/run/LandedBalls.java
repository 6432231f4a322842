package org.loadlab.experiment.run;

import org.loadlab.kernel.MetricsSink;
import org.loadlab.kernel.observe.ForwardingSink;

/**
 * Counts the balls that have landed in a balls-into-bins run: the sum of the bins' loads,
 * kept from the nodes' queue-length observations (each bin's last q_j), so the run can end
 * the moment the last ball lands without scanning the bins. O(1) per observation.
 */
final class LandedBalls extends ForwardingSink {
    private final int[] load;
    private long total;

    /**
     * @param next where every observation goes on to
     * @param bins number of bins (nodes)
     */
    LandedBalls(MetricsSink next, int bins) {
        super(next);
        this.load = new int[bins];
    }

    @Override
    public void queueLength(double now, int node, int queueLength) {
        total += queueLength - load[node];
        load[node] = queueLength;
        super.queueLength(now, node, queueLength);
    }

    /** Balls in the bins now, Σ_j q_j. */
    long total() {
        return total;
    }
}
