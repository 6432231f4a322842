package org.loadlab.node.sharing;

import java.util.Arrays;
import org.loadlab.kernel.Env;

/**
 * The stable protocols of Shivaratri, Krueger and Singhal (1992) and the slides ("Adaptive
 * Algorithms"): every node keeps Senders / Receivers / OK lists ({@link StableLists}), all
 * peers starting as receivers.
 *
 * <p><b>Sender-initiated component</b> (both protocols): when a task arrival makes q &gt; T, poll
 * the head of the Receivers list, then the next head, at most Lp polls, until a receiver is
 * found (the new task goes there) or the node is no longer a sender. The polled node puts the
 * sender at the head of its Senders list and answers with its state; the sender moves the
 * polled node to the head of the list of that state. A poll that times out moves the peer to
 * the head of the OK list (it is neither polled first by senders nor by receivers).
 *
 * <p><b>Receiver-initiated component</b>, {@code stable-symmetric}: when a departure leaves
 * q &lt; T, poll in the slides' order — Senders head to tail (freshest first), then OK tail to
 * head and Receivers tail to head (stalest first) — at most Lp polls, until a sender sends a
 * task or the node is no longer a receiver. A polled sender sends its newest waiting task and
 * its state after the transfer; a polled non-sender puts the poller at the head of its
 * Receivers list and answers with its state. The poller files the polled node by the state in
 * the reply.
 *
 * <p><b>Receiver-initiated component</b>, {@code stable-sender}: no polls. Each node keeps a
 * state vector: for every peer, the list this node is in at that peer (it knows, because it
 * either told the peer its state in a reply or polled the peer as a sender). When a departure
 * leaves q &lt; T, the node sends a StateUpdate(receiver) to every peer whose vector entry is not
 * "receiver" (the misinformed ones), which move it to the head of their Receivers list. All
 * transfers are made by the sender component, so they are non-preemptive.
 */
final class StableAgent extends Agent {
    private final boolean symmetric;
    private final StableLists lists;
    private final PeerState[] believed;
    private final Object senderKey = new Object();
    private final Object receiverKey = new Object();
    private final int[] senderPolled;
    private final int[] receiverPolled;
    private boolean senderActive;
    private boolean receiverActive;
    private long senderPoll = -1;
    private long receiverPoll = -1;
    private int senderPolls;
    private int receiverPolls;

    /**
     * @param symmetric true for {@code stable-symmetric}, false for {@code stable-sender}
     */
    StableAgent(PeerNode node, boolean symmetric) {
        super(node);
        this.symmetric = symmetric;
        this.lists = new StableLists(node.index(), node.nodeCount());
        this.believed = symmetric ? null : new PeerState[node.nodeCount()];
        this.senderPolled = new int[Math.max(1, node.pollLimit())];
        this.receiverPolled = new int[Math.max(1, node.pollLimit())];
    }

    @Override
    void onStart(Env env) {
        lists.reset(node.rng());
        if (believed != null) {
            Arrays.fill(believed, PeerState.RECEIVER); // everybody starts believing everybody is a receiver
        }
    }

    @Override
    void onRecover(Env env) {
        lists.reset(node.rng());
        if (believed != null) {
            Arrays.fill(believed, null); // unknown: inform everyone at the next chance
        }
    }

    @Override
    void onFail(Env env) {
        env.cancelTimer(senderKey);
        env.cancelTimer(receiverKey);
        endSender();
        endReceiver();
    }

    // ------------------------------------------------------------ sender-initiated component

    @Override
    void onTask(Task t, Env env) {
        node.admit(t, env);
        boolean mayMove = t.transfers() < node.settings().maxTransfers();
        if (mayMove && !senderActive && node.queueLength() > node.settings().threshold() && node.hasEligibleWaiting()) {
            senderActive = true;
            senderPolls = 0;
            senderNext(env);
        }
    }

    private void senderNext(Env env) {
        if (senderPolls >= node.pollLimit() || node.queueLength() <= node.settings().threshold()) {
            endSender();
            return;
        }
        int peer = -1;
        for (int j = lists.head(PeerState.RECEIVER); j >= 0; j = lists.after(j)) {
            if (!contains(senderPolled, senderPolls, j)) {
                peer = j;
                break;
            }
        }
        if (peer < 0) {
            endSender(); // no node believed to be a receiver: keep the task, poll nobody
            return;
        }
        senderPolled[senderPolls++] = peer;
        senderPoll = node.nextId();
        if (believed != null) {
            believed[peer] = PeerState.SENDER; // the polled node will list us as a sender
        }
        node.poll(peer, new SharingMessage.Poll(senderPoll, node.index(), SharingMessage.PollKind.SENDER), env);
        env.startTimer(senderKey, node.settings().pollTimeout(), new SharingMessage.PollTimeout(senderPoll));
    }

    private void endSender() {
        senderActive = false;
        senderPoll = -1;
    }

    // ------------------------------------------------------------ receiver-initiated component

    @Override
    void onDeparture(Env env) {
        if (node.queueLength() >= node.settings().threshold()) {
            return;
        }
        if (symmetric) {
            if (!receiverActive) {
                receiverActive = true;
                receiverPolls = 0;
                receiverNext(env);
            }
        } else {
            informMisinformed(env);
        }
    }

    private void receiverNext(Env env) {
        if (receiverPolls >= node.pollLimit() || node.queueLength() >= node.settings().threshold()) {
            endReceiver();
            return;
        }
        int peer = receiverCandidate();
        if (peer < 0) {
            endReceiver();
            return;
        }
        receiverPolled[receiverPolls++] = peer;
        receiverPoll = node.nextId();
        node.poll(peer, new SharingMessage.Poll(receiverPoll, node.index(), SharingMessage.PollKind.RECEIVER), env);
        env.startTimer(receiverKey, node.settings().pollTimeout(), new SharingMessage.PollTimeout(receiverPoll));
    }

    /** The slides' poll order: Senders head→tail, OK tail→head, Receivers tail→head; skip peers polled this round. */
    private int receiverCandidate() {
        for (int j = lists.head(PeerState.SENDER); j >= 0; j = lists.after(j)) {
            if (!contains(receiverPolled, receiverPolls, j)) {
                return j;
            }
        }
        for (int j = lists.tail(PeerState.OK); j >= 0; j = lists.before(j)) {
            if (!contains(receiverPolled, receiverPolls, j)) {
                return j;
            }
        }
        for (int j = lists.tail(PeerState.RECEIVER); j >= 0; j = lists.before(j)) {
            if (!contains(receiverPolled, receiverPolls, j)) {
                return j;
            }
        }
        return -1;
    }

    private void endReceiver() {
        receiverActive = false;
        receiverPoll = -1;
    }

    private void informMisinformed(Env env) {
        int sent = 0;
        for (int j = 0; j < believed.length; j++) {
            if (j != node.index() && believed[j] != PeerState.RECEIVER) {
                believed[j] = PeerState.RECEIVER;
                node.sendControl(j, new SharingMessage.StateUpdate(node.index(), PeerState.RECEIVER), env);
                sent++;
            }
        }
        if (sent > 0) {
            node.count(PeerNode.STATE_UPDATES, sent, env);
        }
    }

    // ------------------------------------------------------------ messages

    @Override
    void onMessage(SharingMessage m, Env env) {
        if (m instanceof SharingMessage.Poll p) {
            answer(p, env);
        } else if (m instanceof SharingMessage.PollReply r) {
            onReply(r, env);
        } else if (m instanceof SharingMessage.PollTimeout t) {
            onTimeout(t, env);
        } else if (m instanceof SharingMessage.StateUpdate u) {
            lists.moveToHead(u.from(), u.state());
        }
    }

    private void answer(SharingMessage.Poll p, Env env) {
        if (p.kind() == SharingMessage.PollKind.SENDER) {
            lists.moveToHead(p.from(), PeerState.SENDER);
            PeerState mine = node.state();
            if (believed != null) {
                believed[p.from()] = mine; // the poller files us by this reply
            }
            node.sendControl(p.from(), new SharingMessage.PollReply(p.pollId(), node.index(), node.queueLength(), mine, false),
                    env);
            return;
        }
        // A receiver's poll (stable-symmetric): a sender gives a task, a non-sender files the poller as a receiver.
        if (node.queueLength() > node.settings().threshold()) {
            Task t = node.takeNewestEligible(env);
            if (t != null) {
                node.transfer(p.from(), t, p.pollId(), env);
                PeerState after = node.state();
                if (believed != null) {
                    believed[p.from()] = after;
                }
                node.sendControl(p.from(), new SharingMessage.PollReply(p.pollId(), node.index(), node.queueLength(), after, true),
                        env);
                return;
            }
        }
        lists.moveToHead(p.from(), PeerState.RECEIVER);
        PeerState mine = node.state();
        if (believed != null) {
            believed[p.from()] = mine;
        }
        node.sendControl(p.from(), new SharingMessage.PollReply(p.pollId(), node.index(), node.queueLength(), mine, false), env);
    }

    private void onReply(SharingMessage.PollReply r, Env env) {
        if (senderActive && r.pollId() == senderPoll) {
            env.cancelTimer(senderKey);
            lists.moveToHead(r.from(), r.state());
            if (r.state() == PeerState.RECEIVER) {
                if (node.queueLength() > node.settings().threshold()) {
                    Task t = node.takeNewestEligible(env);
                    if (t != null) {
                        node.transfer(r.from(), t, r.pollId(), env);
                    }
                }
                endSender();
            } else {
                senderNext(env);
            }
        } else if (receiverActive && r.pollId() == receiverPoll) {
            env.cancelTimer(receiverKey);
            lists.moveToHead(r.from(), r.state());
            if (r.taskSent()) {
                endReceiver();
            } else {
                receiverNext(env);
            }
        } else {
            // A late reply still carries news about the peer.
            lists.moveToHead(r.from(), r.state());
        }
    }

    private void onTimeout(SharingMessage.PollTimeout t, Env env) {
        if (senderActive && t.pollId() == senderPoll) {
            lists.moveToHead(senderPolled[senderPolls - 1], PeerState.OK);
            node.count(PeerNode.POLL_TIMEOUTS, 1, env);
            senderNext(env);
        } else if (receiverActive && t.pollId() == receiverPoll) {
            lists.moveToHead(receiverPolled[receiverPolls - 1], PeerState.OK);
            node.count(PeerNode.POLL_TIMEOUTS, 1, env);
            receiverNext(env);
        }
    }

    private static boolean contains(int[] a, int n, int v) {
        for (int i = 0; i < n; i++) {
            if (a[i] == v) {
                return true;
            }
        }
        return false;
    }

    /** This node's lists (tests). */
    StableLists lists() {
        return lists;
    }

    /** Stable-sender: the list this node is in at {@code peer}, as far as it knows (tests); null if unknown. */
    PeerState believedAt(int peer) {
        return believed == null ? null : believed[peer];
    }
}
