package org.loadlab.node.sharing;

import org.loadlab.kernel.Env;

/**
 * The threshold protocols built from a {@link SenderComponent} and/or a
 * {@link ReceiverComponent}: {@code sender-random}, {@code sender-threshold},
 * {@code sender-shortest} (sender only), {@code receiver} (receiver only, with retry) and
 * {@code symmetric} (sender-threshold and receiver together: "both senders and receivers
 * search for receivers and senders, respectively", the slides). Polls are answered with
 * {@link Agent#answerPoll}.
 *
 * <p>Sources: Eager, Lazowska and Zahorjan 1986; Shivaratri, Krueger and Singhal 1992; the slides.
 */
final class ThresholdAgent extends Agent {
    private final SenderComponent sender;
    private final ReceiverComponent receiver;

    /**
     * @param location the sender component's location policy, or null for none
     * @param receiverInitiated whether the node has a receiver component
     */
    ThresholdAgent(PeerNode node, SenderComponent.Location location, boolean receiverInitiated) {
        super(node);
        this.sender = location == null ? null : new SenderComponent(node, location);
        this.receiver = receiverInitiated ? new ReceiverComponent(node, true) : null;
    }

    @Override
    void onTask(Task t, Env env) {
        if (sender != null) {
            sender.onTask(t, env);
        } else {
            node.admit(t, env);
        }
    }

    @Override
    void onDeparture(Env env) {
        if (receiver != null) {
            receiver.onDeparture(env);
        }
    }

    @Override
    void onMessage(SharingMessage m, Env env) {
        if (m instanceof SharingMessage.Poll p) {
            answerPoll(p, env);
        } else if (m instanceof SharingMessage.PollReply r) {
            if (sender == null || !sender.onReply(r, env)) {
                if (receiver != null) {
                    receiver.onReply(r, env);
                }
            }
        } else if (m instanceof SharingMessage.PollTimeout t) {
            if (sender == null || !sender.onTimeout(t, env)) {
                if (receiver != null) {
                    receiver.onTimeout(t, env);
                }
            }
        } else if (m instanceof SharingMessage.Retry && receiver != null) {
            receiver.onRetry(env);
        }
    }

    @Override
    void onFail(Env env) {
        if (sender != null) {
            sender.reset(env);
        }
        if (receiver != null) {
            receiver.reset(env);
        }
    }

    /** The sender component, or null. */
    SenderComponent sender() {
        return sender;
    }

    /** The receiver component, or null. */
    ReceiverComponent receiver() {
        return receiver;
    }
}
