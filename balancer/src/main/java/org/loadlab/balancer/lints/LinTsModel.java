package org.loadlab.balancer.lints;

import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;
import org.loadlab.kernel.CborSerializable;

/**
 * Seed 003's contextual bandit over the nodes: one {@link LinTsArm} per node, updated with
 * each window's reward against the context the node had when the previous weights were
 * drawn, and the weights of the next period drawn by Thompson sampling: θ̃_j from node j's
 * posterior (variance scale annealed by step), score_j = x_j·θ̃_j, weights = softmax(score/τ)
 * over the nodes in the fleet. A node added later starts from the prior (B = I, f = 0).
 *
 * <p>Pure: the random stream is passed in; no clock. Source: seed 003 ({@code agent.py}:
 * update_model, select_action_weights), SPEC.md §6.
 */
public final class LinTsModel {
    private final LinTsSettings settings;
    private final List<LinTsArm> arms = new ArrayList<>();
    private double[][] previous;
    private long steps;

    /**
     * @param settings the control plane's parameters
     * @param nodes nodes known at the start
     */
    public LinTsModel(LinTsSettings settings, int nodes) {
        this.settings = settings;
        grow(nodes);
    }

    /** Makes sure nodes 0..nodes−1 have an arm (new ones at the prior). */
    public void grow(int nodes) {
        while (arms.size() < nodes) {
            arms.add(new LinTsArm(ContextVector.DIMENSION));
        }
    }

    /**
     * Learns from a window: each node with outcomes gets reward r = settings.reward(...) for
     * the context it had when the current weights were drawn. Nothing happens before the first
     * draw (there is no previous context).
     *
     * @param feedback the window's per-node feedback
     * @return nodes updated
     */
    public int update(RewardWindow.NodeFeedback[] feedback) {
        if (previous == null) {
            return 0;
        }
        int updated = 0;
        for (RewardWindow.NodeFeedback fb : feedback) {
            int j = fb.node();
            if (fb.requests() > 0 && j < previous.length && previous[j] != null) {
                grow(j + 1);
                arms.get(j).update(previous[j], settings.reward(fb.p99Ms(), fb.errorRate(), fb.slaBreachRate()));
                updated++;
            }
        }
        return updated;
    }

    /**
     * Draws the next weights: step + 1, v² annealed, one posterior draw per node in the fleet,
     * softmax of the scores. The contexts become the "previous" ones of the next update.
     *
     * @param contexts one context per node index (null for a node outside the fleet)
     * @param rng the control plane's random stream
     * @return weights per node index, 0 outside the fleet, summing to 1 over it
     */
    public double[] weights(double[][] contexts, RandomGenerator rng) {
        steps++;
        grow(contexts.length);
        double v2 = settings.varianceScale(steps);
        double[] scores = new double[contexts.length];
        boolean[] masked = new boolean[contexts.length];
        for (int j = 0; j < contexts.length; j++) {
            if (contexts[j] == null) {
                masked[j] = true;
                continue;
            }
            scores[j] = LinTsArm.dot(contexts[j], arms.get(j).sample(v2, rng));
        }
        previous = contexts.clone();
        return Softmax.weights(scores, settings.temperature(), masked);
    }

    /** The arm of node {@code j}. @throws IndexOutOfBoundsException if it has none */
    public LinTsArm arm(int j) {
        return arms.get(j);
    }

    /** Nodes with an arm. */
    public int nodes() {
        return arms.size();
    }

    /** Control steps taken (weights drawn). */
    public long steps() {
        return steps;
    }

    /** The settings. */
    public LinTsSettings settings() {
        return settings;
    }

    /**
     * B and f of every node, and the step count: what survives a restart.
     *
     * @param steps control steps taken (the exploration's annealing resumes from it)
     * @param precision per node, B row-major (d·d values)
     * @param accumulated per node, f (d values)
     */
    public record Posterior(long steps, List<double[]> precision, List<double[]> accumulated) implements CborSerializable {
        /** Validates. @throws IllegalArgumentException if the lists differ in length */
        public Posterior {
            if (precision.size() != accumulated.size()) {
                throw new IllegalArgumentException("a posterior needs B and f for every node: " + precision.size() + " B, "
                        + accumulated.size() + " f");
            }
            precision = List.copyOf(precision);
            accumulated = List.copyOf(accumulated);
        }
    }

    /** A copy of the learned state. */
    public Posterior snapshot() {
        List<double[]> b = new ArrayList<>();
        List<double[]> f = new ArrayList<>();
        for (LinTsArm arm : arms) {
            b.add(arm.precision());
            f.add(arm.accumulated());
        }
        return new Posterior(steps, b, f);
    }

    /**
     * Restores a learned state (after a restart): every node of the snapshot gets its B and f
     * back; nodes beyond it keep the prior.
     *
     * @throws IllegalArgumentException if a node's B or f has the wrong size or B is not positive definite
     */
    public void restore(Posterior p) {
        grow(p.precision().size());
        for (int j = 0; j < p.precision().size(); j++) {
            arms.get(j).restore(p.precision().get(j), p.accumulated().get(j));
        }
        steps = p.steps();
    }
}
