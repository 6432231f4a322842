package org.loadlab.node.sharing;

import org.loadlab.kernel.Env;

/**
 * The load-sharing part of a {@link PeerNode}: its transfer, selection, location and
 * information policies. The node calls the hooks below; the agent keeps tasks with
 * {@link PeerNode#admit}, moves them with {@link PeerNode#transfer} and talks to peers with
 * {@link PeerNode#poll} and {@link PeerNode#sendControl}. One subclass per protocol family.
 */
abstract class Agent {
    protected final PeerNode node;

    Agent(PeerNode node) {
        this.node = node;
    }

    /** The agent of {@code protocol} for {@code node}. */
    static Agent create(SharingProtocol protocol, PeerNode node) {
        return switch (protocol) {
            case NONE -> new NoSharing(node);
            case SENDER_RANDOM -> new ThresholdAgent(node, SenderComponent.Location.RANDOM, false);
            case SENDER_THRESHOLD -> new ThresholdAgent(node, SenderComponent.Location.THRESHOLD, false);
            case SENDER_SHORTEST -> new ThresholdAgent(node, SenderComponent.Location.SHORTEST, false);
            case RECEIVER -> new ThresholdAgent(node, null, true);
            case SYMMETRIC -> new ThresholdAgent(node, SenderComponent.Location.THRESHOLD, true);
            case ABOVE_AVERAGE -> new AboveAverageAgent(node);
            case STABLE_SYMMETRIC -> new StableAgent(node, true);
            case STABLE_SENDER -> new StableAgent(node, false);
        };
    }

    /** At the start of the run (the node's random stream is available). */
    void onStart(Env env) {
    }

    /** A new task from the workload driver: keep it ({@link PeerNode#admit}) or transfer it. */
    void onTask(Task t, Env env) {
        node.admit(t, env);
    }

    /**
     * A transferred task arrived (the node is up). By default it is kept and, if it may still
     * move (fewer than max-transfers transfers), offered to the transfer policy like a new task.
     */
    void onTransferIn(SharingMessage.Transfer transfer, Env env) {
        onTask(transfer.task(), env);
    }

    /** A task completed here (q went down by one). */
    void onDeparture(Env env) {
    }

    /** q changed for another reason (a task was sent back here). */
    void onLoadChange(Env env) {
    }

    /** A protocol message or one of the agent's timers (the node is up). */
    void onMessage(SharingMessage m, Env env) {
        if (m instanceof SharingMessage.Poll p) {
            answerPoll(p, env);
        }
    }

    /** The node failed: cancel every timer and forget every round. */
    void onFail(Env env) {
    }

    /** The node recovered with an empty queue: start afresh. */
    void onRecover(Env env) {
    }

    /**
     * The standard answer to a poll: to a sender, the node's queue length and state; to a
     * receiver, if this node is a sender (q &gt; T) with a waiting task that may move, that task
     * (newest first) followed by a reply saying so, else a reply with the state.
     */
    void answerPoll(SharingMessage.Poll p, Env env) {
        boolean sent = false;
        if (p.kind() == SharingMessage.PollKind.RECEIVER && node.queueLength() > node.settings().threshold()) {
            Task t = node.takeNewestEligible(env);
            if (t != null) {
                node.transfer(p.from(), t, p.pollId(), env);
                sent = true;
            }
        }
        node.sendControl(p.from(), new SharingMessage.PollReply(p.pollId(), node.index(), node.queueLength(), node.state(), sent),
                env);
    }

    /** {@code none}: every task runs where it arrives. */
    static final class NoSharing extends Agent {
        NoSharing(PeerNode node) {
            super(node);
        }
    }
}
