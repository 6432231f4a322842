package org.loadlab.node.sharing;

import org.loadlab.kernel.Message;

/**
 * Messages of the peer-to-peer load-sharing protocols: what a {@link PeerNode} accepts besides
 * the scripted {@code NodeMessage.Fail / Recover / Degrade}. Node addresses are node indices
 * ({@code from}); ids ({@code pollId}, {@code round}, {@code acceptId}) are unique per sender.
 * docs/load-sharing.md tables who sends which message when, and what the reply is.
 *
 * <p>Sources: the slides (seed 002); Eager, Lazowska, Zahorjan 1986; Krueger and Finkel 1984;
 * Shivaratri, Krueger and Singhal 1992.
 */
public sealed interface SharingMessage extends Message {

    /** What a poll asks. */
    enum PollKind {
        /** From a sender: "are you a receiver?" (sender-initiated components, sender-shortest). */
        SENDER,
        /** From a receiver: "are you a sender? then send me a task" (receiver-initiated components). */
        RECEIVER
    }

    /**
     * A new task from the workload driver, arriving at this node (its first node).
     *
     * @param id task id, unique within the run
     * @param demand service demand D, work units
     * @param arrivalTime arrival time, seconds
     */
    record Arrival(long id, double demand, double arrivalTime) implements SharingMessage {
        @Override
        public int estimatedBytes() {
            return 32;
        }
    }

    /**
     * A poll: the receiver answers with a {@link PollReply} carrying {@code pollId} (a crashed
     * node does not answer; the poller's {@link PollTimeout} fires).
     *
     * @param pollId id chosen by the poller
     * @param from the poller's node index
     * @param kind what the poller is
     */
    record Poll(long pollId, int from, PollKind kind) implements SharingMessage {
        @Override
        public int estimatedBytes() {
            return 24;
        }
    }

    /**
     * The answer to a {@link Poll}.
     *
     * @param pollId the poll's id
     * @param from the polled node's index
     * @param queueLength the polled node's q when it answered (after a transfer it made), tasks
     * @param state the polled node's state under the threshold (after a transfer it made)
     * @param taskSent true when the polled node answered a receiver poll by sending a task
     *     (a {@link Transfer} with {@code ref = pollId} follows)
     */
    record PollReply(long pollId, int from, int queueLength, PeerState state, boolean taskSent) implements SharingMessage {
        @Override
        public int estimatedBytes() {
            return 32;
        }
    }

    /**
     * A task moving to another node; the receiver must keep it (or, above-average only, send
     * it back with {@link TaskReturn} when it arrives after the promise expired).
     *
     * @param task the task, its {@code transfers} already counting this transfer
     * @param from the sending node's index
     * @param ref the poll id or accept id this transfer answers, −1 for none
     */
    record Transfer(Task task, int from, long ref) implements SharingMessage {
        @Override
        public int estimatedBytes() {
            return 56;
        }
    }

    /**
     * Above-average: a transferred task sent back because its Accept had expired; the
     * receiver (the node that sent it) must keep it.
     *
     * @param task the task (its transfer count is not reset, so it moves no further)
     * @param from the node sending it back
     */
    record TaskReturn(Task task, int from) implements SharingMessage {
        @Override
        public int estimatedBytes() {
            return 56;
        }
    }

    /**
     * Above-average: "my load is above the acceptable range" (broadcast by a sender, or sent
     * to one receiver in answer to its {@link TooLow}).
     *
     * @param from the sender's index
     * @param round the sender's round id
     */
    record TooHigh(int from, long round) implements SharingMessage {
        @Override
        public int estimatedBytes() {
            return 20;
        }
    }

    /**
     * Above-average: "my load is below the acceptable range" (broadcast by a receiver).
     *
     * @param from the receiver's index
     * @param round the receiver's round id
     */
    record TooLow(int from, long round) implements SharingMessage {
        @Override
        public int estimatedBytes() {
            return 20;
        }
    }

    /**
     * Above-average: a receiver's promise to take exactly one task, valid for
     * {@code awaiting-task-timeout} seconds.
     *
     * @param from the receiver's index
     * @param acceptId id of the promise; the sender echoes it in {@link Transfer#ref()}
     */
    record Accept(int from, long acceptId) implements SharingMessage {
        @Override
        public int estimatedBytes() {
            return 20;
        }
    }

    /**
     * Above-average: move the estimate of the average load. Every receiver sets its estimate to
     * max(own, {@code estimate}) when {@code up}, min(own, {@code estimate}) otherwise, so
     * simultaneous broadcasts do not add up.
     *
     * @param from the broadcasting node's index
     * @param up true to raise the estimate (a TooHigh found no receiver), false to lower it
     * @param estimate the broadcaster's new estimate, tasks
     */
    record ChangeAverage(int from, boolean up, double estimate) implements SharingMessage {
        @Override
        public int estimatedBytes() {
            return 24;
        }
    }

    /**
     * Stable sender-initiated: "I am now in state {@code state}" (a new receiver informs the
     * nodes whose lists hold it elsewhere).
     *
     * @param from the node's index
     * @param state its state
     */
    record StateUpdate(int from, PeerState state) implements SharingMessage {
        @Override
        public int estimatedBytes() {
            return 16;
        }
    }

    /** Timer: the task in server slot {@code slot} (or the CPU overhead it ran) finished. */
    record ServiceDone(int slot) implements SharingMessage {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /** Timer: poll {@code pollId} (or, sender-shortest, the round it opened) got no reply in time. */
    record PollTimeout(long pollId) implements SharingMessage {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /** Timer: a receiver whose polls all failed tries again (receiver-initiated retry period). */
    record Retry() implements SharingMessage {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /** Timer: no Accept answered TooHigh round {@code round}. */
    record TooHighTimeout(long round) implements SharingMessage {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /** Timer: no TooHigh answered TooLow round {@code round}. */
    record TooLowTimeout(long round) implements SharingMessage {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /** Timer: the task promised by Accept {@code acceptId} did not arrive in time. */
    record AwaitingTaskTimeout(long acceptId) implements SharingMessage {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /** Timer: messages held back by delay line {@code line} (0 control, 1 transfers) are due. */
    record Flush(int line) implements SharingMessage {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }
}
