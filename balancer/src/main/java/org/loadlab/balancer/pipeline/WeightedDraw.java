package org.loadlab.balancer.pipeline;

import java.util.random.RandomGenerator;
import org.loadlab.balancer.decision.Candidates;

/**
 * A picker that draws an eligible candidate at random in proportion to a weight per node
 * (times the candidate's dynamic slow-start weight): seed 003's "weighted round robin", which
 * is a capacity-weighted random draw (150/80/60/50/20, autoscaled nodes 100), not nginx's
 * smooth cycle. When every eligible weight is 0 it draws uniformly among the eligible.
 *
 * <p>Source: seed 003 ({@code routing_strategies.py} {@code _select_weighted_round_robin}).
 */
public final class WeightedDraw implements Picker {
    private final double[] weightByNode;

    /** @param weightByNode static weight per node index, ≥ 0 */
    public WeightedDraw(double[] weightByNode) {
        this.weightByNode = weightByNode.clone();
    }

    /** The probability this picker gives candidate {@code position} among {@code c}'s eligible ones. */
    public double probability(Candidates c, int position) {
        double total = total(c);
        return total > 0 ? weightOf(c, position) / total : 1.0 / Math.max(1, c.count() - c.maskedCount());
    }

    private double weightOf(Candidates c, int i) {
        int node = c.node(i);
        return c.eligible(i) && node < weightByNode.length ? weightByNode[node] * c.weight(i) : 0;
    }

    private double total(Candidates c) {
        double total = 0;
        for (int i = 0; i < c.count(); i++) {
            total += weightOf(c, i);
        }
        return total;
    }

    @Override
    public int pick(Candidates c, Scorer scorer, RandomGenerator rng) {
        double total = total(c);
        if (!(total > 0)) {
            return Pickers.uniform().pick(c, scorer, rng);
        }
        double u = rng.nextDouble() * total;
        int last = -1;
        for (int i = 0; i < c.count(); i++) {
            double w = weightOf(c, i);
            if (w > 0) {
                last = i;
                u -= w;
                if (u < 0) {
                    return i;
                }
            }
        }
        return last;
    }

    @Override
    public boolean appliesWeights() {
        return true;
    }
}
