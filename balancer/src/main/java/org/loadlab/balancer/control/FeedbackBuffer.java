package org.loadlab.balancer.control;

import java.util.Arrays;
import org.loadlab.node.protocol.LoadSnapshot;

/**
 * A balancer's side of the control loop: the outcomes and arrivals since its last report,
 * gathered on the routing path at O(1) each, and turned into one {@link ControlMessage.Feedback}
 * per report period.
 *
 * <p>Source: seed 003 (the gateway records every outcome for the control plane's window).
 */
public final class FeedbackBuffer {
    private int[] nodes = new int[64];
    private double[] latencies = new double[64];
    private boolean[] failed = new boolean[64];
    private int size;
    private long arrivals;

    /** A request arrived. */
    public void arrived() {
        arrivals++;
    }

    /**
     * An attempt at {@code node} ended.
     *
     * @param node the node
     * @param latencySeconds routing to answer, seconds
     * @param fail true unless the node served it
     */
    public void outcome(int node, double latencySeconds, boolean fail) {
        if (size == nodes.length) {
            nodes = Arrays.copyOf(nodes, size * 2);
            latencies = Arrays.copyOf(latencies, size * 2);
            failed = Arrays.copyOf(failed, size * 2);
        }
        nodes[size] = node;
        latencies[size] = latencySeconds * 1000.0;
        failed[size] = fail;
        size++;
    }

    /** Outcomes gathered since the last report. */
    public int size() {
        return size;
    }

    /**
     * The report of what was gathered, and a fresh start.
     *
     * @param balancer the balancer's index
     * @param now its clock, seconds
     * @param loads its newest load per node (copied)
     * @param members per node, whether it is in the balancer's cluster (copied)
     */
    public ControlMessage.Feedback drain(int balancer, double now, LoadSnapshot[] loads, boolean[] members) {
        ControlMessage.Feedback f = new ControlMessage.Feedback(balancer, now, arrivals, Arrays.copyOf(nodes, size),
                Arrays.copyOf(latencies, size), Arrays.copyOf(failed, size), loads.clone(), members.clone());
        size = 0;
        arrivals = 0;
        return f;
    }
}
