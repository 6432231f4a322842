package org.loadlab.node.sharing;

import org.loadlab.kernel.Env;

/**
 * The sender-initiated component of Eager, Lazowska and Zahorjan (1986) and the slides
 * ("Sender-Initiated Algorithms"): transfer policy — a task arriving makes q &gt; T; selection
 * policy — the newly arrived task (the newest waiting task that may still move); location
 * policy:
 * <ul>
 *   <li>{@link Location#RANDOM}: ship the task to a uniformly random peer, no poll;</li>
 *   <li>{@link Location#THRESHOLD}: poll random distinct peers one at a time, at most Lp; the
 *       first whose q &lt; T gets the task; if none, keep it;</li>
 *   <li>{@link Location#SHORTEST}: poll Lp random distinct peers at once and ship the task to
 *       the shortest queue (ties at random) unless that queue is ≥ T.</li>
 * </ul>
 * Information policy: demand-driven (polls only when a node becomes a sender). One round at a
 * time per node; a task arriving during a round just waits. When a positive answer comes the
 * node transfers only if it is still a sender (q &gt; T).
 */
final class SenderComponent {
    /** Location policy. */
    enum Location {
        /** Random peer, no poll. */
        RANDOM,
        /** First polled peer below the threshold. */
        THRESHOLD,
        /** Shortest of Lp polled peers, if below the threshold. */
        SHORTEST
    }

    private final PeerNode node;
    private final Location location;
    private final Object timerKey = new Object();
    private final int[] polled;
    private boolean active;
    private long pollId = -1;
    private int polls;
    private int expected;
    private int replies;
    private int best;
    private int bestQueue;
    private int ties;

    SenderComponent(PeerNode node, Location location) {
        this.node = node;
        this.location = location;
        this.polled = new int[Math.max(1, node.pollLimit())];
    }

    /** True while a polling round is open. */
    boolean active() {
        return active;
    }

    /** A task arrived (from the driver or an unsolicited transfer): keep it or ship it, and maybe start a round. */
    void onTask(Task t, Env env) {
        int threshold = node.settings().threshold();
        boolean mayMove = t.transfers() < node.settings().maxTransfers();
        if (location == Location.RANDOM) {
            if (mayMove && node.queueLength() + 1 > threshold && node.allServersBusy()) {
                node.transfer(node.randomPeer(), t, -1, env);
            } else {
                node.admit(t, env);
            }
            return;
        }
        node.admit(t, env);
        if (mayMove && !active && node.queueLength() > threshold && node.hasEligibleWaiting()) {
            active = true;
            polls = 0;
            if (location == Location.THRESHOLD) {
                pollNext(env);
            } else {
                pollAll(env);
            }
        }
    }

    private void pollNext(Env env) {
        if (polls >= node.pollLimit() || node.queueLength() <= node.settings().threshold()) {
            end();
            return;
        }
        int peer = pickUnpolled();
        pollId = node.nextId();
        node.poll(peer, new SharingMessage.Poll(pollId, node.index(), SharingMessage.PollKind.SENDER), env);
        env.startTimer(timerKey, node.settings().pollTimeout(), new SharingMessage.PollTimeout(pollId));
    }

    private void pollAll(Env env) {
        pollId = node.nextId();
        expected = node.pollLimit();
        replies = 0;
        best = -1;
        ties = 0;
        for (int i = 0; i < expected; i++) {
            int peer = pickUnpolled();
            node.poll(peer, new SharingMessage.Poll(pollId, node.index(), SharingMessage.PollKind.SENDER), env);
        }
        env.startTimer(timerKey, node.settings().pollTimeout(), new SharingMessage.PollTimeout(pollId));
    }

    /** A reply; returns false if it belongs to no open round of this component. */
    boolean onReply(SharingMessage.PollReply r, Env env) {
        if (!active || r.pollId() != pollId) {
            return false;
        }
        int threshold = node.settings().threshold();
        if (location == Location.THRESHOLD) {
            env.cancelTimer(timerKey);
            if (r.queueLength() < threshold) {
                transferTo(r.from(), env);
                end();
            } else {
                pollNext(env);
            }
            return true;
        }
        replies++;
        if (best < 0 || r.queueLength() < bestQueue) {
            best = r.from();
            bestQueue = r.queueLength();
            ties = 1;
        } else if (r.queueLength() == bestQueue && node.rng().nextInt(++ties) == 0) {
            best = r.from(); // reservoir choice: every tied peer equally likely
        }
        if (replies == expected) {
            env.cancelTimer(timerKey);
            decideShortest(env);
        }
        return true;
    }

    /** A poll timeout; returns false if it belongs to no open round of this component. */
    boolean onTimeout(SharingMessage.PollTimeout t, Env env) {
        if (!active || t.pollId() != pollId) {
            return false;
        }
        if (location == Location.THRESHOLD) {
            node.count(PeerNode.POLL_TIMEOUTS, 1, env);
            pollNext(env);
        } else {
            node.count(PeerNode.POLL_TIMEOUTS, expected - replies, env);
            decideShortest(env);
        }
        return true;
    }

    private void decideShortest(Env env) {
        if (best >= 0 && bestQueue < node.settings().threshold()) {
            transferTo(best, env);
        }
        end();
    }

    private void transferTo(int peer, Env env) {
        if (node.queueLength() > node.settings().threshold()) {
            Task t = node.takeNewestEligible(env);
            if (t != null) {
                node.transfer(peer, t, pollId, env);
            }
        }
    }

    private int pickUnpolled() {
        int j = node.randomPeerNotIn(polled, polls);
        polled[polls++] = j;
        return j;
    }

    private void end() {
        active = false;
        pollId = -1;
    }

    /** Forgets the open round and cancels its timer (node failure). */
    void reset(Env env) {
        env.cancelTimer(timerKey);
        end();
    }
}
