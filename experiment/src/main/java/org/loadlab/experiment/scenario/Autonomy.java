package org.loadlab.experiment.scenario;

import java.util.List;
import org.loadlab.balancer.autoscale.AutoscalerSettings;
import org.loadlab.balancer.core.QosShedding;
import org.loadlab.balancer.guardrail.FailOpen;
import org.loadlab.balancer.lints.LinTsSettings;
import org.loadlab.node.profile.NodeProfile;

/**
 * The keys of seed 003's autonomous balancer (docs/scenarios.md#autonomous-balancer-seed-003),
 * each usable on its own and by every policy: the SLA latency, the node model, the requests'
 * endpoints, QoS shedding, the fail-open behaviour and the circuit breaker of published
 * weights, the LinTS control plane and the autoscaler.
 *
 * @param slaLatency {@code sla.latency}: a completed request slower than this is an SLA breach, seconds
 * @param nodeModel {@code nodes.model}: {@code queue} (SPEC.md §1) or {@code profiles} (seed 003)
 * @param profiles {@code nodes.profiles} then {@code nodes.extra-profile}: the profile of each node index
 * @param endpointMix {@code endpoints}: weight per endpoint index of {@code Endpoints.NAMES}; all 0 (the
 *     default): requests name no endpoint
 * @param shedding {@code shedding}: QoS shedding of low-priority endpoints
 * @param failOpen {@code guardrails.fail-open}: what a decision does when too few candidates survive
 * @param weightsStaleAfter {@code guardrails.weights-stale-after}: age of published weights that trips
 *     {@code lin-ts}'s circuit breaker, seconds
 * @param linTs {@code lin-ts}: the control plane's parameters (its SLA is {@code sla.latency})
 * @param autoscaler {@code autoscaler}: seed 003's HPA
 *     <p>Source: seed 003, SPEC.md §6.
 */
public record Autonomy(double slaLatency, String nodeModel, List<NodeProfile> profiles, double[] endpointMix,
                       QosShedding shedding, FailOpen failOpen, double weightsStaleAfter, LinTsSettings linTs,
                       AutoscalerSettings autoscaler) {
    /** Everything off: queue nodes, no endpoints, no shedding, Envoy's panic mode, no autoscaler. */
    public static final Autonomy DEFAULTS = new Autonomy(0.2, "queue", List.of(), new double[5], QosShedding.OFF,
            FailOpen.PANIC, 1.0, LinTsSettings.DEFAULTS, AutoscalerSettings.OFF);

    /** True if the nodes run seed 003's latency model. */
    public boolean profileNodes() {
        return nodeModel.equals("profiles");
    }

    /** True if requests carry endpoints. */
    public boolean endpoints() {
        for (double w : endpointMix) {
            if (w > 0) {
                return true;
            }
        }
        return false;
    }

    /** The profile of node {@code j} (profile-model nodes). */
    public NodeProfile profileOf(int j) {
        return profiles.get(j);
    }
}
