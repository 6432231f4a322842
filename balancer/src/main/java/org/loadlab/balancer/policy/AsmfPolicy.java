package org.loadlab.balancer.policy;

import java.util.random.RandomGenerator;
import org.loadlab.node.protocol.LoadSnapshot;

/**
 * ASMF, adaptive sampled marginal feedback (seed 000, SPEC.md §3): for each candidate
 * L_j = α CPU + β MEM + γ IO + δ NET, S_j = μ_j/((1+q_j)(1+L_j)), S'_j = S_j·C_j with the
 * node's feedback correction C_j; pick the largest S'_j (ties at random) and reject if
 * it is below τ. Ablations switch off feedback (C ≡ 1), sampling (all allowed nodes) or
 * multi-resource load (L ≡ 0).
 */
public final class AsmfPolicy implements SelectionPolicy {
    private final String name;
    private final AsmfSettings settings;
    private final ArgBest best = new ArgBest();

    /**
     * @param name the name to report ({@code asmf} or an ablation's name)
     * @param settings parameters and ablation switches
     */
    public AsmfPolicy(String name, AsmfSettings settings) {
        this.name = name;
        this.settings = settings;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int sampleSize(int allowedCount) {
        return settings.useSampling() ? Math.min(settings.k(), allowedCount) : allowedCount;
    }

    /** S'_j of one node under these settings. */
    public double score(LoadSnapshot s) {
        double load = settings.useMultiResource()
                ? settings.alpha() * s.cpu() + settings.beta() * s.mem() + settings.gamma() * s.io() + settings.delta() * s.net()
                : 0.0;
        double base = s.serviceRate() / ((1.0 + s.queueLength()) * (1.0 + load));
        return settings.useFeedback() ? base * s.correction() : base;
    }

    @Override
    public int choose(CandidateSet candidates, RandomGenerator rng) {
        best.start(rng);
        for (int i = 0; i < candidates.count(); i++) {
            if (candidates.usable(i)) {
                best.offer(i, -score(candidates.load(i)));
            }
        }
        if (best.best() < 0 || -best.bestValue() < settings.tau()) {
            return REJECT;
        }
        return best.best();
    }
}
