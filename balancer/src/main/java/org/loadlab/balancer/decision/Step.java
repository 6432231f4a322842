package org.loadlab.balancer.decision;

/**
 * What a routing policy wants next for one request: route it, reject it, or read the load
 * of some nodes and continue with what the reads return. Every policy, single-round or
 * multi-round, is a sequence of such steps run by the balancer's one decision engine.
 *
 * <p>Source: seed 001 (a decision in several rounds), SPEC.md §2.
 */
public sealed interface Step permits Step.Route, Step.Reject, Step.Read {

    /**
     * Final: send the request to {@code node}.
     *
     * @param node index of a node of the balancer's allowed set
     */
    record Route(int node) implements Step {
    }

    /** Final: the policy refuses the request (rejected, or held back in delay mode). */
    record Reject() implements Step {
    }

    /**
     * Read the load of {@code nodes} through the scenario's information model, screen the
     * answers with the guardrails, then call {@code then} with the {@link Candidates}.
     *
     * @param nodes indices of allowed nodes, at least one, distinct
     * @param wholeView true when the policy reads these nodes as a global view (a single-round
     *     policy): the oracle model then charges |allowed| queries (SPEC.md §2), the other
     *     models one query per node; false: one query per node read in every model
     * @param then what to do with the answers
     */
    record Read(int[] nodes, boolean wholeView, Continuation then) implements Step {
        /** Validates. @throws IllegalArgumentException if {@code nodes} is empty or {@code then} null */
        public Read {
            if (nodes == null || nodes.length == 0) {
                throw new IllegalArgumentException("a read step needs at least one node");
            }
            if (then == null) {
                throw new IllegalArgumentException("a read step needs a continuation");
            }
        }
    }

    /** The rest of a decision once the loads of a {@link Read} are known. */
    @FunctionalInterface
    interface Continuation {
        /**
         * @param read the read nodes, their loads (null where unknown) and guardrail masks, same order
         * @param context the same request's context
         * @return the next step
         */
        Step next(Candidates read, DecisionContext context);
    }

    /** The shared reject step. */
    Reject REJECT = new Reject();

    /** @param node an allowed node index @return a route step (shared for small indices: no allocation per decision) */
    static Step route(int node) {
        return node >= 0 && node < Routes.CACHE.length ? Routes.CACHE[node] : new Route(node);
    }

    /** The route steps of the first nodes, made once. */
    final class Routes {
        private static final Route[] CACHE = new Route[4096];

        static {
            for (int i = 0; i < CACHE.length; i++) {
                CACHE[i] = new Route(i);
            }
        }

        private Routes() {
        }
    }

    /** @return the reject step */
    static Step reject() {
        return REJECT;
    }

    /**
     * A read charged one query per node in every information model (multi-round policies).
     *
     * @param then continuation called with the answers
     * @param nodes nodes to read (allowed, distinct, at least one)
     * @return a read step
     */
    static Step read(Continuation then, int... nodes) {
        return new Read(nodes, false, then);
    }
}
