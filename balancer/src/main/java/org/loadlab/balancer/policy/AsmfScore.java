package org.loadlab.balancer.policy;

import org.loadlab.balancer.pipeline.Scorers;
import org.loadlab.node.protocol.LoadSnapshot;

/**
 * ASMF's corrected score S'_j = μ_j/((1+q_j)(1+L_j))·C_j with L_j = α CPU + β MEM + γ IO +
 * δ NET and the node's feedback correction C_j; the ablation switches drop C (no feedback)
 * or L (no multi-resource). Highest wins; the ASMF picker rejects below τ.
 *
 * <p>Source: seed 000, SPEC.md §3.
 */
public final class AsmfScore extends Scorers.LoadScorer {
    private final AsmfSettings settings;

    /** @param settings weights and switches */
    public AsmfScore(AsmfSettings settings) {
        super("S' = mu/((1+q)(1+L))*C, highest wins; rejected below tau", true);
        this.settings = settings;
    }

    /** S'_j of one node under these settings. */
    @Override
    public double of(LoadSnapshot s) {
        double load = settings.useMultiResource()
                ? settings.alpha() * s.cpu() + settings.beta() * s.mem() + settings.gamma() * s.io() + settings.delta() * s.net()
                : 0.0;
        double base = s.serviceRate() / ((1.0 + s.queueLength()) * (1.0 + load));
        return settings.useFeedback() ? base * s.correction() : base;
    }
}
