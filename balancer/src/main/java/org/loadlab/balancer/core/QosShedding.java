package org.loadlab.balancer.core;

import org.loadlab.node.protocol.Endpoints;

/**
 * Seed 003's adaptive QoS load shedding (scenario block {@code shedding}): while the mean CPU
 * of the balancer's member nodes (from the loads it has read) is above {@code cpuAbove},
 * requests of priority {@code priority} or lower are refused at once with HTTP 429 and
 * counted as {@code shed}; requests without an endpoint are never shed.
 *
 * @param enabled false: nothing is shed
 * @param cpuAbove mean CPU share above which shedding starts, in [0, 1] (seed: 0.80)
 * @param priority the highest priority shed ({@link Endpoints#LOW} sheds only low, MEDIUM medium and low)
 *     <p>Source: seed 003 ({@code gateway.py} adaptive traffic shaping), SPEC.md §6.
 */
public record QosShedding(boolean enabled, double cpuAbove, int priority) {
    /** Off, with the seed's values for when it is on. */
    public static final QosShedding OFF = new QosShedding(false, 0.80, Endpoints.LOW);

    /** Validates. @throws IllegalArgumentException naming the key, the value and what is allowed */
    public QosShedding {
        if (!(cpuAbove >= 0 && cpuAbove <= 1)) {
            throw new IllegalArgumentException("shedding.cpu-above = " + cpuAbove + ": allowed a CPU share in [0, 1]");
        }
        if (priority < Endpoints.HIGH || priority > Endpoints.LOW) {
            throw new IllegalArgumentException("shedding.priority = " + priority + ": allowed one of "
                    + Endpoints.PRIORITY_NAMES);
        }
    }

    /** True if a request of {@code priority} is shed at mean CPU share {@code meanCpu}. */
    public boolean sheds(int requestPriority, double meanCpu) {
        return enabled && requestPriority >= priority && meanCpu > cpuAbove;
    }
}
