package org.loadlab.node.backend;

import java.util.List;
import org.loadlab.kernel.BalancerId;

/**
 * Settings shared by the backend nodes of a run (the per-node service rate μ_j is given
 * to each node separately).
 *
 * @param servers c, number of parallel servers per node (≥ 1)
 * @param queueCapacity maximum q_j (waiting + in service); 0 means unbounded
 * @param resourcePeriod seconds between resource-state updates (SPEC §1 default 0.1), > 0
 * @param reportPeriod seconds between LoadReports; 0 disables reporting
 * @param reportDelay extra seconds between taking a report and sending it (staleness), ≥ 0
 * @param reportTo balancers that receive LoadReports
 * @param feedback ASMF feedback correction parameters
 * @param heartbeatPeriod seconds between the heartbeats a node sends to {@code reportTo}; 0 sends none
 *     <p>Source: SPEC.md §1 and §2; seed 003 (nodes heartbeat every 0.1 s).
 */
public record NodeSettings(int servers, int queueCapacity, double resourcePeriod,
                           double reportPeriod, double reportDelay, List<BalancerId> reportTo,
                           FeedbackSettings feedback, double heartbeatPeriod) {
    /** Settings without heartbeats. */
    public NodeSettings(int servers, int queueCapacity, double resourcePeriod, double reportPeriod, double reportDelay,
                        List<BalancerId> reportTo, FeedbackSettings feedback) {
        this(servers, queueCapacity, resourcePeriod, reportPeriod, reportDelay, reportTo, feedback, 0);
    }

    /** Validates ranges. @throws IllegalArgumentException naming the bad field */
    public NodeSettings {
        if (servers < 1) {
            throw new IllegalArgumentException("nodes.servers must be >= 1, was " + servers);
        }
        if (queueCapacity < 0) {
            throw new IllegalArgumentException("nodes.queue-capacity must be >= 0 (0 = unbounded), was " + queueCapacity);
        }
        if (!(resourcePeriod > 0)) {
            throw new IllegalArgumentException("nodes.resource-period must be > 0 s, was " + resourcePeriod);
        }
        if (!(reportPeriod >= 0) || !(reportDelay >= 0)) {
            throw new IllegalArgumentException("report period and delay must be >= 0 s, were " + reportPeriod + ", " + reportDelay);
        }
        if (!(heartbeatPeriod >= 0)) {
            throw new IllegalArgumentException("nodes.heartbeat-period must be >= 0 s (0: none), was " + heartbeatPeriod);
        }
        reportTo = List.copyOf(reportTo);
    }

    /** One server, unbounded queue, resources every 0.1 s, no reports, no feedback. */
    public static NodeSettings defaults() {
        return new NodeSettings(1, 0, 0.1, 0, 0, List.of(), FeedbackSettings.OFF);
    }
}
