package org.loadlab.balancer.policy;

import org.loadlab.node.protocol.LoadSnapshot;

/**
 * What a {@link RoundPolicy} wants next for one request: route it, reject it, or read the
 * load of some nodes and continue.
 *
 * <p>Source: seed 001 (a decision in several rounds), SPEC.md §2.
 */
public sealed interface Step permits Step.Route, Step.Reject, Step.Read {

    /**
     * Final: send the request to {@code node}.
     *
     * @param node index of an allowed node
     */
    record Route(int node) implements Step {
    }

    /** Final: reject the request (counted as rejected). */
    record Reject() implements Step {
    }

    /**
     * Read the load of {@code nodes} (one query each), then call {@code then} with the loads in
     * the same order ({@code loads[i]} is null when node {@code nodes[i]} did not answer its
     * probe, or never reported in the cached model).
     *
     * @param nodes indices of allowed nodes, at least one, distinct
     * @param then what to do with the loads
     */
    record Read(int[] nodes, Continuation then) implements Step {
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
         * @param loads the loads of the read's nodes, same order; null entries for unknown loads
         * @param context the same request's context
         * @return the next step
         */
        Step next(LoadSnapshot[] loads, DecisionContext context);
    }

    /** The shared reject step. */
    Reject REJECT = new Reject();

    /** @param node an allowed node index @return a route step */
    static Step route(int node) {
        return new Route(node);
    }

    /** @return the reject step */
    static Step reject() {
        return REJECT;
    }

    /**
     * @param then continuation called with the loads
     * @param nodes nodes to read (allowed, distinct, at least one)
     * @return a read step
     */
    static Step read(Continuation then, int... nodes) {
        return new Read(nodes, then);
    }
}
