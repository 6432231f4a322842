package org.loadlab.node.sharing;

import org.loadlab.kernel.Env;

/**
 * The receiver-initiated component (Eager, Lazowska and Zahorjan 1986; the slides,
 * "Receiver-Initiated Algorithms"): transfer policy — triggered by a task departure that leaves
 * q &lt; T; location policy — poll random distinct peers one at a time, at most Lp; a polled
 * node with q &gt; T sends its newest waiting task that may still move (a non-preemptive
 * transfer) and says so in its reply; if no poll succeeds, wait {@code retry-period} and try
 * again if still a receiver. Information policy: demand-driven.
 */
final class ReceiverComponent {
    private static final SharingMessage.Retry RETRY = new SharingMessage.Retry();

    private final PeerNode node;
    private final boolean retry;
    private final Object timerKey = new Object();
    private final Object retryKey = new Object();
    private final int[] polled;
    private boolean active;
    private long pollId = -1;
    private int polls;

    /**
     * @param node the node
     * @param retry whether a failed round is retried after {@code retry-period}
     */
    ReceiverComponent(PeerNode node, boolean retry) {
        this.node = node;
        this.retry = retry;
        this.polled = new int[Math.max(1, node.pollLimit())];
    }

    /** True while a polling round is open. */
    boolean active() {
        return active;
    }

    /** A task departed: start a round if q &lt; T and none is open. */
    void onDeparture(Env env) {
        if (!active && node.queueLength() < node.settings().threshold()) {
            start(env);
        }
    }

    /** The retry timer fired. */
    void onRetry(Env env) {
        if (!active && node.queueLength() < node.settings().threshold()) {
            start(env);
        }
    }

    private void start(Env env) {
        env.cancelTimer(retryKey);
        active = true;
        polls = 0;
        pollNext(env);
    }

    private void pollNext(Env env) {
        if (node.queueLength() >= node.settings().threshold()) {
            end();
            return;
        }
        if (polls >= node.pollLimit()) {
            end();
            if (retry) {
                env.startTimer(retryKey, node.settings().retryPeriod(), RETRY);
            }
            return;
        }
        int peer = pickUnpolled();
        pollId = node.nextId();
        node.poll(peer, new SharingMessage.Poll(pollId, node.index(), SharingMessage.PollKind.RECEIVER), env);
        env.startTimer(timerKey, node.settings().pollTimeout(), new SharingMessage.PollTimeout(pollId));
    }

    /** A reply; returns false if it belongs to no open round of this component. */
    boolean onReply(SharingMessage.PollReply r, Env env) {
        if (!active || r.pollId() != pollId) {
            return false;
        }
        env.cancelTimer(timerKey);
        if (r.taskSent()) {
            end(); // the task follows in a Transfer
        } else {
            pollNext(env);
        }
        return true;
    }

    /** A poll timeout; returns false if it belongs to no open round of this component. */
    boolean onTimeout(SharingMessage.PollTimeout t, Env env) {
        if (!active || t.pollId() != pollId) {
            return false;
        }
        node.count(PeerNode.POLL_TIMEOUTS, 1, env);
        pollNext(env);
        return true;
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

    /** Forgets the open round and cancels its timers (node failure). */
    void reset(Env env) {
        env.cancelTimer(timerKey);
        env.cancelTimer(retryKey);
        end();
    }
}
