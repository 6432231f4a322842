package org.loadlab.experiment.run;

import java.util.ArrayList;
import java.util.List;
import org.loadlab.balancer.pipeline.PipelinePolicy;
import org.loadlab.balancer.policy.AsmfScore;
import org.loadlab.balancer.decision.RoutingPolicy;
import org.loadlab.node.backend.BackendNode;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.sharing.PeerNode;

/**
 * One node's state when the arrivals ended (before the queues drain): what a balancer
 * would read in a probe reply, plus — for the ASMF policies — the corrected score S'_j the
 * policy would give it. Written to {@code nodes.csv} so the feedback correction C_j and the
 * scores can be inspected per node.
 *
 * @param node node index
 * @param load the node's snapshot (q_j, μ_j, CPU/MEM/IO/NET, C_j)
 * @param score S'_j under the run's ASMF settings, NaN for other policies
 */
public record NodeInspection(int node, LoadSnapshot load, double score) {

    /**
     * Inspects every backend node of a balancer run at time {@code now}.
     *
     * @param assembly the run's cores (nodes and the policy of balancer 0)
     * @param now time, seconds
     * @return one entry per node; in a load-sharing run one per peer, with μ_j and q_j only (a
     *     peer has no CPU/MEM/IO/NET, correction or score: those are NaN)
     */
    static List<NodeInspection> of(RunAssembly assembly, double now) {
        List<NodeInspection> out = new ArrayList<>();
        if (assembly.loadSharing()) {
            for (int j = 0; j < assembly.peers().length; j++) {
                PeerNode p = assembly.peers()[j];
                out.add(new NodeInspection(j, new LoadSnapshot(j, p.queueLength(), p.inServiceCount(), p.serviceRate(),
                        Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, now, !p.failed()), Double.NaN));
            }
            return out;
        }
        if (assembly.nodes() == null || assembly.balancers().length == 0) {
            return out;
        }
        RoutingPolicy policy = assembly.balancers()[0].routingPolicy();
        for (org.loadlab.node.backend.ServingNode node : assembly.nodes()) {
            LoadSnapshot s = node.snapshot(now);
            boolean asmf = policy instanceof PipelinePolicy p && p.scorer() instanceof AsmfScore;
            out.add(new NodeInspection(s.node(), s, asmf ? policy.score(s, 0) : Double.NaN));
        }
        return out;
    }
}
