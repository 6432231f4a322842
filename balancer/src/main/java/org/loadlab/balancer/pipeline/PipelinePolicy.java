package org.loadlab.balancer.pipeline;

import java.util.random.RandomGenerator;
import org.loadlab.balancer.decision.Candidates;
import org.loadlab.balancer.decision.DecisionContext;
import org.loadlab.balancer.decision.Step;
import org.loadlab.balancer.decision.RoutingPolicy;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.ResponseStatus;

/**
 * A single-round policy as a pipeline: a {@link Sampler} says which nodes to read, the
 * balancer reads them through the information model and screens them with its guardrail
 * filters, a {@link Scorer} values each candidate and a {@link Picker} chooses. Every
 * built-in single-round policy is such a composition ({@link org.loadlab.balancer.policy.PolicyCatalog}).
 *
 * <p>In the cached information model, before any sampled node has reported, the choice is
 * uniform among the sampled nodes (the balancer has nothing to go on).
 *
 * <p>Source: DESIGN.md ("Policies as pipelines"); the llm-d / Gateway API
 * inference-extension endpoint picker (filters → scorers → picker).
 */
public final class PipelinePolicy implements RoutingPolicy {
    private final String name;
    private final Sampler sampler;
    private final Scorer scorer;
    private final Picker picker;
    /** The scorer when it learns from outcomes, else null (found once: not an interface type check per response). */
    private final OutcomeListener listener;
    /** True if the scorer needs each request's latency (so the balancer stamps requests). */
    private final boolean measuresLatency;
    private final Step.Continuation chooser = this::chooseStep;

    /**
     * @param name the name scenarios use
     * @param sampler which nodes to read
     * @param scorer how to value a candidate, or null for pickers that rank nothing
     * @param picker how to choose
     */
    public PipelinePolicy(String name, Sampler sampler, Scorer scorer, Picker picker) {
        this.name = name;
        this.sampler = sampler;
        this.scorer = scorer;
        this.picker = picker;
        this.listener = scorer instanceof OutcomeListener l ? l : null;
        this.measuresLatency = listener != null && listener.measuresLatency();
    }

    @Override
    public String name() {
        return name;
    }

    /** How this policy values a candidate (null for pickers that rank nothing). */
    public Scorer scorer() {
        return scorer;
    }

    /** Which nodes this policy reads. */
    public Sampler sampler() {
        return sampler;
    }

    /** Nodes read per decision from a pool of {@code poolSize} nodes (0 for load-blind policies). */
    public int reads(int poolSize) {
        return sampler.reads(poolSize);
    }

    @Override
    public Step start(DecisionContext c) {
        int reads = sampler.reads(c.poolSize());
        if (reads == 0) {
            return chooseStep(c.pool(), c);
        }
        if (sampler.local()) {
            return chooseStep(c.draw(reads), c);
        }
        int[] nodes = sampler.withReplacement() ? c.sampleWithReplacement(reads) : c.sample(reads);
        return new Step.Read(nodes, true, chooser);
    }

    /** The picker. */
    public Picker picker() {
        return picker;
    }

    @Override
    public void onOutcome(int node, ResponseStatus status, double latency, double now) {
        if (listener != null) {
            listener.onOutcome(node, status, latency, now);
        }
    }

    @Override
    public boolean measuresLatency() {
        return measuresLatency;
    }

    @Override
    public void onNodeBack(int node, double now) {
        if (listener != null) {
            listener.onNodeBack(node, now);
        }
    }

    /** A picker that draws or cycles by weight applies slow start itself; a ranking one over the whole pool does not. */
    @Override
    public boolean appliesWeights() {
        return picker.appliesWeights();
    }

    private Step chooseStep(Candidates candidates, DecisionContext c) {
        if (candidates.count() == 0) {
            return Step.reject();
        }
        if (sampler.readsLoad() && c.unknownLoadRoutable() && candidates.noneKnown()) {
            return Step.route(candidates.node(c.random().nextInt(candidates.count())));
        }
        int position = choose(candidates, c.random());
        return position == Picker.REJECT ? Step.reject() : Step.route(candidates.node(position));
    }

    /**
     * The pure selection: scorer and picker over {@code candidates}.
     *
     * @param candidates at least one candidate
     * @param rng the balancer's random stream
     * @return a position, or {@link Picker#REJECT}
     */
    public int choose(Candidates candidates, RandomGenerator rng) {
        return picker.pick(candidates, scorer, rng);
    }

    @Override
    public double score(LoadSnapshot load, int inFlight) {
        return scorer == null ? Double.NaN : scorer.score(load, inFlight);
    }

    @Override
    public String rule() {
        return scorer == null ? RoutingPolicy.super.rule() : scorer.rule();
    }
}
