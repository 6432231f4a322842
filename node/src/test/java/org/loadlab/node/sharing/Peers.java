package org.loadlab.node.sharing;

import org.loadlab.kernel.NodeId;
import org.loadlab.kernel.observe.RequestLedger;
import org.loadlab.kernel.sim.LatencyModel;
import org.loadlab.kernel.sim.SimHarness;

/**
 * A load-sharing run for protocol tests: {@code n} {@link PeerNode}s, every one installed as a
 * core on the simulation engine ({@link SimHarness}), which gives the network latency,
 * per-pair FIFO delivery, timer semantics and observations. This class only builds the nodes,
 * numbers the tasks a test puts at them, runs until they are resolved and checks task
 * conservation; tests step time and read messages, timers and counters through {@link #sim}.
 */
final class Peers {
    /** Simulated seconds {@link #drain} may run past now before it gives up. */
    private static final double DRAIN_LIMIT = 100_000;

    final SimHarness sim;
    final PeerNode[] nodes;
    private long nextTaskId;

    /**
     * Builds and starts the run (every node's {@code onStart} at time 0; what they send then is
     * delivered at the next step).
     *
     * @param n nodes
     * @param protocol every node's protocol
     * @param settings the protocol parameters
     * @param latency one-way network latency between nodes, seconds
     * @param seed master seed of the nodes' random streams
     */
    Peers(int n, SharingProtocol protocol, SharingSettings settings, double latency, long seed) {
        sim = new SimHarness(seed, n, 0, 0, new LatencyModel(latency, 0));
        nodes = new PeerNode[n];
        for (int i = 0; i < n; i++) {
            nodes[i] = new PeerNode(NodeId.of(i), n, 1.0, 1, protocol, settings);
            sim.install(NodeId.of(i), nodes[i]);
        }
        sim.start();
    }

    /** Settings with threshold T, zero latency and delay, and everything else at its default. */
    static SharingSettings ideal(int threshold) {
        SharingSettings d = SharingSettings.defaults();
        return new SharingSettings(threshold, d.pollLimit(), 0, d.pollTimeout(), 0, 0, 0, 1, d.retryPeriod(), d.aboveAverage());
    }

    /**
     * A new task of {@code demand} work units arrives at node {@code i} now; it and everything
     * else due now is handled. The engine queues it behind what is already due at this instant
     * (the messages the nodes sent at start, when a test puts tasks at time 0), where the old
     * hand-driven cluster handed it to the node ahead of them; no case here depends on that
     * order (a TooLow reaching a node that is not a sender is ignored either way).
     */
    void arrive(int i, double demand) {
        sim.deliver(NodeId.of(i), new SharingMessage.Arrival(nextTaskId++, demand, sim.now()));
    }

    /**
     * Runs until every task has completed or been lost (receivers may go on polling for ever,
     * so an empty event queue is not the criterion).
     *
     * @throws AssertionError naming the counts if that does not happen within {@link #DRAIN_LIMIT} simulated seconds
     */
    void drain() {
        RequestLedger r = sim.requests();
        if (!sim.runUntil(() -> r.arrived() == r.resolved(), sim.now() + DRAIN_LIMIT)) {
            throw new AssertionError("the run does not drain: " + r.arrived() + " arrived, " + r.completed()
                    + " completed, " + r.lost() + " lost by t = " + sim.now());
        }
    }

    /** Checks task conservation now: the observed counts against what the nodes hold and what is in transit. */
    void checkConservation() {
        RequestLedger r = sim.requests();
        TaskConservation.checkPeers("test", r.arrived(), r.completed(), r.rejected(), r.lost(), nodes);
    }
}
