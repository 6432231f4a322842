package org.loadlab.balancer.policy;

import org.loadlab.balancer.decision.RoutingPolicy;

import org.loadlab.balancer.decision.Candidates;
import org.loadlab.balancer.decision.DecisionContext;
import org.loadlab.balancer.decision.Step;
import org.loadlab.node.protocol.LoadSnapshot;

/**
 * {@code strict-po2c}: seed 001's baseline: every request reads two distinct uniformly random
 * allowed nodes (2 probes) and goes to the one with the shorter queue q_j, ties at random.
 * The same rule as {@code p2c}, written as a one-round multi-round-style policy so that it counts
 * exactly the reads it makes in every information model (2 per request, also with the
 * oracle, where the single-round policies are charged |allowed|). With a single allowed node
 * it reads that one. A node that did not answer or is down is excluded; with none usable the
 * request is rejected (or, in the cached model before any report, routed blindly among the
 * two).
 *
 * <p>Source: seed 001 ("Strict Po2C: sample 2 servers, probe both, route to the lighter"),
 * SPEC.md §3; Mitzenmacher 2001.
 */
public final class StrictPo2cPolicy implements RoutingPolicy {
    @Override
    public String name() {
        return "strict-po2c";
    }

    @Override
    public Step start(DecisionContext c) {
        int a = c.sampleAllowed();
        if (a < 0) {
            return Step.reject(); // every allowed node is gone
        }
        int b = c.sampleAllowedExcept(a);
        if (b < 0) {
            return Step.read(StrictPo2cPolicy::choose, a);
        }
        return Step.read(StrictPo2cPolicy::choose, a, b);
    }

    private static Step choose(Candidates read, DecisionContext c) {
        int best = -1;
        int bestQ = Integer.MAX_VALUE;
        int ties = 0;
        int unknown = -1;
        int unknownCount = 0;
        for (int i = 0; i < read.count(); i++) {
            if (read.unknown(i)) {
                unknownCount++;
                if (c.random().nextInt(unknownCount) == 0) {
                    unknown = read.node(i);
                }
                continue;
            }
            if (!read.usable(i)) {
                continue;
            }
            int q = read.load(i).queueLength();
            if (q < bestQ) {
                best = read.node(i);
                bestQ = q;
                ties = 1;
            } else if (q == bestQ && c.random().nextInt(++ties) == 0) {
                best = read.node(i);
            }
        }
        if (best >= 0) {
            return Step.route(best);
        }
        return unknown >= 0 && c.unknownLoadRoutable() ? Step.route(unknown) : Step.reject();
    }

    @Override
    public double score(LoadSnapshot load, int inFlight) {
        return load == null || !load.available() ? Double.NaN : load.queueLength();
    }

    @Override
    public String rule() {
        return "queue length q_j of two random nodes, lowest wins";
    }
}
