package org.loadlab.experiment.run;

import java.util.ArrayList;
import java.util.List;
import org.loadlab.balancer.pipeline.PipelinePolicy;
import org.loadlab.balancer.policy.AsmfScore;
import org.loadlab.balancer.decision.RoutingPolicy;
import org.loadlab.node.backend.BackendNode;
import org.loadlab.node.protocol.LoadSnapshot;

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
     * @return one entry per node; empty for peer (load-sharing) runs, which have no backend nodes
     */
    static List<NodeInspection> of(RunAssembly assembly, double now) {
        List<NodeInspection> out = new ArrayList<>();
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
