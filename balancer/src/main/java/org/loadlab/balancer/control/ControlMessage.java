package org.loadlab.balancer.control;

import org.loadlab.kernel.Message;
import org.loadlab.node.protocol.LoadSnapshot;

/**
 * Messages the control services accept (seed 003's control plane and its autoscaler, each a
 * {@link org.loadlab.kernel.ServiceId}): what the balancers saw, and their own timers.
 *
 * <p>Source: seed 003 (outcome stream and window feedback, control loop, HPA loop), SPEC.md §6.
 */
public sealed interface ControlMessage extends Message {

    /**
     * What balancer {@code balancer} saw since its previous report: the outcome of every attempt
     * that ended (node, latency, whether it failed), the requests that arrived, and its newest
     * load of each node with whether the node is a member of its pool.
     *
     * @param balancer the reporting balancer's index
     * @param sentAt when it was sent, on the balancer's clock, seconds
     * @param arrivals requests that arrived at the balancer since its previous report
     * @param nodes per outcome: the node
     * @param latencyMs per outcome: routing to answer, ms
     * @param failed per outcome: true unless the node served it (HTTP 200)
     * @param loads per node index: the newest load the balancer has, or null
     * @param members per node index: true while the node is in the balancer's cluster (reachable, not leaving)
     */
    record Feedback(int balancer, double sentAt, long arrivals, int[] nodes, double[] latencyMs, boolean[] failed,
                    LoadSnapshot[] loads, boolean[] members) implements ControlMessage {
        /** Validates. @throws IllegalArgumentException if the outcome arrays differ in length */
        public Feedback {
            if (nodes.length != latencyMs.length || nodes.length != failed.length || loads.length != members.length) {
                throw new IllegalArgumentException("feedback arrays differ in length: " + nodes.length + " outcomes, "
                        + latencyMs.length + " latencies, " + failed.length + " flags; " + loads.length + " loads, "
                        + members.length + " members");
            }
        }

        /** Equal when every field is equal (arrays by content). */
        @Override
        public boolean equals(Object o) {
            return o instanceof Feedback f && f.balancer == balancer && Double.compare(f.sentAt, sentAt) == 0
                    && f.arrivals == arrivals && java.util.Arrays.equals(f.nodes, nodes)
                    && java.util.Arrays.equals(f.latencyMs, latencyMs) && java.util.Arrays.equals(f.failed, failed)
                    && java.util.Arrays.equals(f.loads, loads) && java.util.Arrays.equals(f.members, members);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(balancer, sentAt, arrivals, java.util.Arrays.hashCode(nodes),
                    java.util.Arrays.hashCode(latencyMs), java.util.Arrays.hashCode(failed), java.util.Arrays.hashCode(loads),
                    java.util.Arrays.hashCode(members));
        }

        @Override
        public String toString() {
            return "Feedback[balancer=" + balancer + ", sentAt=" + sentAt + ", arrivals=" + arrivals + ", outcomes="
                    + nodes.length + "]";
        }

        /** Outcomes carried. */
        public int outcomes() {
            return nodes.length;
        }

        @Override
        public int estimatedBytes() {
            int known = 0;
            for (LoadSnapshot s : loads) {
                if (s != null) {
                    known++;
                }
            }
            return 32 + 13 * nodes.length + 24 * known + members.length / 8 + 1;
        }
    }

    /** Timer: time for the control loop (the control plane) or a scaling check (the autoscaler). */
    record Tick() implements ControlMessage {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }
}
