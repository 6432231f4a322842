package org.loadlab.node.sharing;

import java.util.LinkedHashMap;
import java.util.Map;
import org.loadlab.kernel.Env;

/**
 * Krueger and Finkel's above-average algorithm (1984; the slides, "The Above-Average
 * Algorithm"). Each node keeps an estimate A of the average load and an acceptable range
 * [A − r, A + r]; its load L is its queue length plus the tasks it has promised to take and
 * not yet received. L &gt; A + r makes it a sender, L &lt; A − r a receiver.
 *
 * <p>"Becoming" a sender or receiver is a change of state, checked after every change of load
 * (arrival, departure, transfer in or back, expired promise) and of the estimate A; a node that
 * stays a receiver does not broadcast again, and a round ends (without ChangeAverage) when the
 * node leaves the state that opened it.
 *
 * <p><b>Sender component.</b> On becoming a sender (with no TooHigh round open and a waiting
 * task that may move), broadcast TooHigh and set the TooHigh timeout. On each
 * Accept, if still a sender, transfer the newest waiting task to that receiver (one task per
 * Accept, echoing its id). If the timeout expires before any Accept, raise A by one step and
 * broadcast ChangeAverage(up).
 *
 * <p><b>Receiver component.</b> On becoming a receiver (no TooLow round open), broadcast TooLow
 * and set the TooLow timeout. A receiver that gets a TooHigh ends its TooLow round, answers
 * Accept, raises its load by one (the promise) and sets an AwaitingTask timeout for it. If the
 * TooLow timeout expires before any TooHigh, lower A by one step (not below 0) and broadcast
 * ChangeAverage(down). A sender that gets a TooLow answers it with a TooHigh to that receiver.
 *
 * <p><b>Broadcasts</b> go to the peers in a random order, drawn from the node's own stream for
 * each broadcast: copies of one broadcast have no order of their own, and sent in index order
 * over equal latencies they would arrive in index order, so the lowest-numbered receiver would
 * always answer first and get the task (with 40 identical nodes, nodes 0–9 served 2.7% of the
 * tasks each and nodes 30–39 2.3%).
 *
 * <p><b>Safety.</b> A node takes a transferred task only against an open promise; a task that
 * comes for an expired or unknown promise is sent back to its sender, which must keep it (its
 * transfer count is not reset). So no message sequence can make a node accept more tasks than
 * it advertised. ChangeAverage messages never add up: a node moves its estimate to
 * max(own, received) when raised and min(own, received) when lowered.
 */
final class AboveAverageAgent extends Agent {
    private final SharingSettings.AboveAverage p;
    private final Object tooHighKey = new Object();
    private final Object tooLowKey = new Object();
    private final Map<Long, Integer> promises = new LinkedHashMap<>();
    private double average;
    private long highRound = -1;
    private long lowRound = -1;
    private PeerState state = PeerState.OK;

    /** Key of the AwaitingTask timer of promise {@code acceptId}. */
    private record AwaitKey(long acceptId) {
    }

    AboveAverageAgent(PeerNode node) {
        super(node);
        this.p = node.settings().aboveAverage();
        this.average = p.initialAverage();
    }

    /** L: queue length plus open promises. */
    int load() {
        return node.queueLength() + promises.size();
    }

    /** The node's estimate A of the average load, tasks. */
    double average() {
        return average;
    }

    /** Tasks promised by Accepts and not yet received. */
    int promised() {
        return promises.size();
    }

    private boolean isSender() {
        return load() > average + p.range();
    }

    private boolean isReceiver() {
        return load() < average - p.range();
    }

    @Override
    void onStart(Env env) {
        evaluate(env);
    }

    @Override
    void onTask(Task t, Env env) {
        node.admit(t, env);
        evaluate(env);
    }

    @Override
    void onTransferIn(SharingMessage.Transfer transfer, Env env) {
        Integer from = promises.remove(transfer.ref());
        if (from == null) {
            node.sendBack(transfer.from(), transfer.task(), env); // not promised (any more): never accept it
            return;
        }
        env.cancelTimer(new AwaitKey(transfer.ref()));
        node.admit(transfer.task(), env);
        evaluate(env);
    }

    @Override
    void onDeparture(Env env) {
        evaluate(env);
    }

    @Override
    void onLoadChange(Env env) {
        evaluate(env);
    }

    /** Starts a TooHigh or TooLow round when the node has just become a sender or a receiver (and none is open). */
    private void evaluate(Env env) {
        PeerState before = state;
        state = isSender() ? PeerState.SENDER : isReceiver() ? PeerState.RECEIVER : PeerState.OK;
        if (state == before) {
            return;
        }
        // A round lasts while the node stays what it was: leaving the state ends it without a ChangeAverage.
        if (before == PeerState.SENDER && highRound >= 0) {
            env.cancelTimer(tooHighKey);
            highRound = -1;
        } else if (before == PeerState.RECEIVER && lowRound >= 0) {
            env.cancelTimer(tooLowKey);
            lowRound = -1;
        }
        if (state == PeerState.SENDER && highRound < 0 && node.hasEligibleWaiting()) {
            highRound = node.nextId();
            broadcast(new SharingMessage.TooHigh(node.index(), highRound), env);
            env.startTimer(tooHighKey, p.tooHighTimeout(), new SharingMessage.TooHighTimeout(highRound));
        } else if (state == PeerState.RECEIVER && lowRound < 0) {
            lowRound = node.nextId();
            broadcast(new SharingMessage.TooLow(node.index(), lowRound), env);
            env.startTimer(tooLowKey, p.tooLowTimeout(), new SharingMessage.TooLowTimeout(lowRound));
        }
    }

    private void broadcast(SharingMessage m, Env env) {
        int[] order = node.peersInRandomOrder();
        for (int j : order) {
            node.poll(j, m, env);
        }
    }

    @Override
    void onMessage(SharingMessage m, Env env) {
        if (m instanceof SharingMessage.TooHigh h) {
            onTooHigh(h, env);
        } else if (m instanceof SharingMessage.TooLow l) {
            if (isSender() && node.hasEligibleWaiting()) {
                node.poll(l.from(), new SharingMessage.TooHigh(node.index(), highRound), env);
            }
        } else if (m instanceof SharingMessage.Accept a) {
            onAccept(a, env);
        } else if (m instanceof SharingMessage.ChangeAverage c) {
            average = c.up() ? Math.max(average, c.estimate()) : Math.min(average, c.estimate());
            evaluate(env);
        } else if (m instanceof SharingMessage.TooHighTimeout t) {
            if (t.round() == highRound) {
                highRound = -1;
                changeAverage(true, env);
            }
        } else if (m instanceof SharingMessage.TooLowTimeout t) {
            if (t.round() == lowRound) {
                lowRound = -1;
                changeAverage(false, env);
            }
        } else if (m instanceof SharingMessage.AwaitingTaskTimeout t) {
            if (promises.remove(t.acceptId()) != null) {
                evaluate(env); // the promised slot is free again
            }
        } else if (m instanceof SharingMessage.Poll poll) {
            answerPoll(poll, env);
        }
    }

    private void onTooHigh(SharingMessage.TooHigh h, Env env) {
        if (!isReceiver()) {
            return;
        }
        if (lowRound >= 0) {
            env.cancelTimer(tooLowKey);
            lowRound = -1;
        }
        long acceptId = node.nextId();
        promises.put(acceptId, h.from());
        node.sendControl(h.from(), new SharingMessage.Accept(node.index(), acceptId), env);
        env.startTimer(new AwaitKey(acceptId), p.awaitingTaskTimeout(), new SharingMessage.AwaitingTaskTimeout(acceptId));
        evaluate(env); // the promise counts as load
    }

    private void onAccept(SharingMessage.Accept a, Env env) {
        if (highRound >= 0) {
            env.cancelTimer(tooHighKey); // someone answered: no ChangeAverage for this round
            highRound = -1;
        }
        if (isSender()) {
            Task t = node.takeNewestEligible(env);
            if (t != null) {
                node.transfer(a.from(), t, a.acceptId(), env);
                evaluate(env);
            }
        }
        // Otherwise the receiver's AwaitingTask timeout frees the promised slot.
    }

    private void changeAverage(boolean up, Env env) {
        average = up ? average + p.averageStep() : Math.max(0.0, average - p.averageStep());
        node.count(PeerNode.AVERAGE_CHANGES, 1, env);
        SharingMessage.ChangeAverage m = new SharingMessage.ChangeAverage(node.index(), up, average);
        for (int j : node.peersInRandomOrder()) {
            node.sendControl(j, m, env);
        }
        evaluate(env);
    }

    @Override
    void onFail(Env env) {
        env.cancelTimer(tooHighKey);
        env.cancelTimer(tooLowKey);
        for (Long id : promises.keySet()) {
            env.cancelTimer(new AwaitKey(id));
        }
        promises.clear();
        highRound = -1;
        lowRound = -1;
    }

    @Override
    void onRecover(Env env) {
        average = p.initialAverage();
        state = PeerState.OK;
        evaluate(env);
    }
}
