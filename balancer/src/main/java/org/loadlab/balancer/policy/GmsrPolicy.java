package org.loadlab.balancer.policy;

import java.util.random.RandomGenerator;
import org.loadlab.node.protocol.LoadSnapshot;

/**
 * {@code gmsr}, greedy marginal service rate: argmax μ_j/(1+q_j) over all allowed nodes,
 * ties at random; unknown or failed nodes are skipped. Source: SPEC.md §3, seed 000.
 */
public final class GmsrPolicy implements SelectionPolicy {
    private final ArgBest best = new ArgBest();

    @Override
    public String name() {
        return "gmsr";
    }

    @Override
    public int sampleSize(int allowedCount) {
        return allowedCount;
    }

    @Override
    public int choose(CandidateSet candidates, RandomGenerator rng) {
        best.start(rng);
        for (int i = 0; i < candidates.count(); i++) {
            if (candidates.usable(i)) {
                LoadSnapshot s = candidates.load(i);
                best.offer(i, -s.serviceRate() / (1.0 + s.queueLength()));
            }
        }
        return best.best() < 0 ? REJECT : best.best();
    }
}
