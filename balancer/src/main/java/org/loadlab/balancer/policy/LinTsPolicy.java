package org.loadlab.balancer.policy;

import org.loadlab.balancer.decision.Candidates;
import org.loadlab.balancer.decision.DecisionContext;
import org.loadlab.balancer.decision.RoutingPolicy;
import org.loadlab.balancer.decision.Step;
import org.loadlab.balancer.pipeline.Pickers;
import org.loadlab.balancer.pipeline.Picker;
import org.loadlab.balancer.pipeline.Scorer;
import org.loadlab.balancer.pipeline.Scorers;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.LoadSnapshot;

/**
 * The data plane of seed 003's {@code lin-ts}: it reads no load and learns nothing itself;
 * it draws a node of the pool (masked nodes excluded) in proportion to the weights the
 * control plane published last ({@link org.loadlab.balancer.lints.LinTsControlPlane}),
 * renormalised over the eligible nodes. Its guardrail is the staleness circuit breaker: with
 * no weights yet, or weights older than {@code staleAfter} seconds, it routes to the eligible
 * node with the fewest requests in flight (mode {@value #BREAKER}); when the eligible nodes'
 * weights are all 0 it does the same (mode {@value #ALL_MASKED}). Each weighted draw states
 * its propensity w_j / Σ w for off-policy evaluation.
 *
 * <p>Source: seed 003 ({@code routing_strategies.py} lin_ts; {@code gateway.py} the staleness
 * circuit breaker), SPEC.md §6.
 */
public final class LinTsPolicy implements RoutingPolicy {
    /** Routing mode of a decision by the published weights. */
    public static final String MODE = "lin_ts";
    /** Routing mode while the weights are missing or stale. */
    public static final String BREAKER = "fallback_circuit_breaker_least_conn";
    /** Routing mode when no eligible node has weight. */
    public static final String ALL_MASKED = "fallback_all_masked_least_conn";
    /** The seed's staleness threshold, seconds. */
    public static final double DEFAULT_STALE_AFTER = 1.0;

    private final double staleAfter;
    private final Picker fewest = Pickers.best();
    private final Scorer inFlight = Scorers.inFlight();
    private double[] weights;
    private double publishedAt = Double.NaN;
    private long version = Long.MIN_VALUE;

    /**
     * @param staleAfter seconds after which published weights trip the circuit breaker, &gt; 0
     * @throws IllegalArgumentException if {@code staleAfter} is not positive
     */
    public LinTsPolicy(double staleAfter) {
        if (!(staleAfter > 0)) {
            throw new IllegalArgumentException("guardrails.weights-stale-after = " + staleAfter + ": allowed > 0 s");
        }
        this.staleAfter = staleAfter;
    }

    @Override
    public String name() {
        return "lin-ts";
    }

    @Override
    public Step start(DecisionContext c) {
        Candidates pool = c.pool();
        if (pool.count() == 0) {
            return Step.reject();
        }
        if (tripped(c.now())) {
            c.mode(BREAKER);
            return leastConnections(pool, c);
        }
        double total = 0;
        for (int i = 0; i < pool.count(); i++) {
            total += weightOf(pool, i);
        }
        if (!(total > 0)) {
            c.mode(ALL_MASKED);
            return leastConnections(pool, c);
        }
        double u = c.random().nextDouble() * total;
        int chosen = -1;
        for (int i = 0; i < pool.count(); i++) {
            double w = weightOf(pool, i);
            if (w > 0) {
                chosen = i;
                u -= w;
                if (u < 0) {
                    break;
                }
            }
        }
        c.propensity(weightOf(pool, chosen) / total);
        return Step.route(pool.node(chosen));
    }

    private Step leastConnections(Candidates pool, DecisionContext c) {
        int position = fewest.pick(pool, inFlight, c.random());
        if (position < 0) {
            return Step.reject();
        }
        return Step.route(pool.node(position));
    }

    private double weightOf(Candidates pool, int i) {
        int node = pool.node(i);
        return pool.eligible(i) && node < weights.length ? weights[node] * pool.weight(i) : 0;
    }

    /** True while the circuit breaker is open at {@code now}: no weights, or weights older than the threshold. */
    public boolean tripped(double now) {
        return weights == null || !(now - publishedAt <= staleAfter);
    }

    @Override
    public void onWeights(BalancerMessage.Weights w) {
        if (w.version() > version) {
            version = w.version();
            weights = w.weights().clone();
            publishedAt = w.publishedAt();
        }
    }

    /** The weight node {@code node} has in the latest publication (0 if none). */
    public double weight(int node) {
        return weights == null || node >= weights.length ? 0 : weights[node];
    }

    /** When the weights in use were published, seconds (NaN before the first). */
    public double publishedAt() {
        return publishedAt;
    }

    @Override
    public boolean appliesWeights() {
        return true;
    }

    @Override
    public double score(LoadSnapshot load, int inFlightCount) {
        return load == null ? Double.NaN : weight(load.node());
    }

    @Override
    public String rule() {
        return "draw by the control plane's published LinTS weights; least connections when they are older than "
                + staleAfter + " s";
    }
}
