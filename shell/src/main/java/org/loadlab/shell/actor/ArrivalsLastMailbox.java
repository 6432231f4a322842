package org.loadlab.shell.actor;

import com.typesafe.config.Config;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.dispatch.Envelope;
import org.apache.pekko.dispatch.MailboxType;
import org.apache.pekko.dispatch.MessageQueue;
import org.apache.pekko.dispatch.ProducesMessageQueue;
import org.apache.pekko.dispatch.UnboundedMessageQueueSemantics;
import org.loadlab.node.protocol.BalancerMessage;
import scala.Option;

/**
 * The mailbox of a balancer actor: new arrivals wait behind everything else. Probe replies,
 * responses, reports, membership news and timers finish work a balancer has already
 * started; an arrival starts new work. When a balancer falls behind (past the knee of a real
 * cluster, or in a GC pause), a plain FIFO mailbox makes every probe reply wait behind the
 * arrivals queued before it, so every decision in flight waits out its probe timeout and the
 * throughput collapses. Handling work in progress first keeps the decisions in flight quick;
 * the admission bound ({@code balancers.max-decisions-in-flight}) then refuses the excess
 * arrivals at once. Each class of message stays in order (two FIFO queues, like Pekko's
 * control-aware mailbox). Unbounded, as Pekko's default mailbox.
 *
 * <p>The simulation has no mailbox (every message is handled at its time), so this changes
 * nothing the cores compute, only when a backlogged shell hands them their messages.
 *
 * <p>Configured as {@code loadlab.balancer-mailbox} (shell reference.conf).
 */
public final class ArrivalsLastMailbox implements MailboxType, ProducesMessageQueue<ArrivalsLastMailbox.Queue> {
    /** The configuration path of this mailbox. */
    public static final String CONFIG = "loadlab.balancer-mailbox";

    /** Pekko's constructor for a configured mailbox type. */
    public ArrivalsLastMailbox(ActorSystem.Settings settings, Config config) {
    }

    @Override
    public MessageQueue create(Option<ActorRef> owner, Option<ActorSystem> system) {
        return new Queue();
    }

    /** Two FIFO queues: everything but arrivals first. */
    public static final class Queue implements MessageQueue, UnboundedMessageQueueSemantics {
        private final ConcurrentLinkedQueue<Envelope> first = new ConcurrentLinkedQueue<>();
        private final ConcurrentLinkedQueue<Envelope> arrivals = new ConcurrentLinkedQueue<>();
        private final AtomicInteger size = new AtomicInteger();

        @Override
        public void enqueue(ActorRef receiver, Envelope handle) {
            (handle.message() instanceof BalancerMessage.Arrival ? arrivals : first).add(handle);
            size.incrementAndGet();
        }

        @Override
        public Envelope dequeue() {
            Envelope e = first.poll();
            if (e == null) {
                e = arrivals.poll();
            }
            if (e != null) {
                size.decrementAndGet();
            }
            return e;
        }

        @Override
        public int numberOfMessages() {
            return size.get();
        }

        @Override
        public boolean hasMessages() {
            return !first.isEmpty() || !arrivals.isEmpty();
        }

        @Override
        public void cleanUp(ActorRef owner, MessageQueue deadLetters) {
            Envelope e;
            while ((e = dequeue()) != null) {
                deadLetters.enqueue(owner, e);
            }
        }
    }
}
