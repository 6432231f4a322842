package org.loadlab.shell.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.MailboxSelector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.Env;
import org.loadlab.kernel.Logic;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.observe.ObservationLog;
import org.loadlab.node.protocol.BalancerMessage;

/**
 * The balancer's mailbox: while the actor is busy, work in progress (probe replies,
 * responses, anything but an arrival) queues ahead of new arrivals; each kind keeps its order.
 */
class ArrivalsLastMailboxTest {
    private static final ActorTestKit KIT = ActorTestKit.create();

    @AfterAll
    static void shutdown() {
        KIT.shutdownTestKit();
    }

    /** Blocks on its first message until released, then reports every message it handles. */
    static final class Recorder implements Logic<Message> {
        final CountDownLatch release = new CountDownLatch(1);
        final List<String> seen = new ArrayList<>();

        @Override
        public void onStart(Env env) {
        }

        @Override
        public void on(Message m, Env env) {
            if (seen.isEmpty() && !(m instanceof BalancerMessage.Arrival)) {
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            seen.add(m instanceof BalancerMessage.Arrival a ? "arrival-" + a.id()
                    : m instanceof BalancerMessage.Response r ? "response-" + r.id()
                    : m instanceof BalancerMessage.ProbeReply p ? "reply-" + p.probeId() : m.getClass().getSimpleName());
        }
    }

    @Test
    void workInProgressOvertakesQueuedArrivalsAndEachKindKeepsItsOrder() {
        Recorder core = new Recorder();
        LogicActor.Wiring wiring = new LogicActor.Wiring(new BalancerId(0), new Directory(), LiveClock.startingNow(1),
                new SplittableRandom(1), new ObservationLog(), null);
        ActorRef<Message> actor = KIT.spawn(LogicActor.create(core, wiring), "balancer",
                MailboxSelector.fromConfig(ArrivalsLastMailbox.CONFIG));
        actor.tell(new BalancerMessage.Response(0, 1, 0, true)); // blocks the actor until released
        actor.tell(new BalancerMessage.Arrival(1, 0.1, 0));
        actor.tell(new BalancerMessage.ProbeReply(1, null));
        actor.tell(new BalancerMessage.Arrival(2, 0.1, 0));
        actor.tell(new BalancerMessage.Response(1, 1, 0, true));
        actor.tell(new BalancerMessage.ProbeReply(2, null));
        TestProbe<List<String>> answer = KIT.createTestProbe();
        // An Inspect is not an arrival either: it comes after the replies queued before it, before the arrivals.
        // Told while the actor is still blocked, so it is queued before the actor can take an arrival.
        actor.tell(new LogicActor.Inspect<>((logic, env) -> List.copyOf(((Recorder) logic).seen), answer.ref()));
        core.release.countDown();
        assertEquals(List.of("response-0", "reply-1", "response-1", "reply-2"), answer.receiveMessage());
        List<String> all;
        do { // an Inspect may overtake arrivals still queued: ask until both were handled
            actor.tell(new LogicActor.Inspect<>((logic, env) -> List.copyOf(((Recorder) logic).seen), answer.ref()));
            all = answer.receiveMessage();
        } while (all.size() < 6);
        assertEquals(List.of("response-0", "reply-1", "response-1", "reply-2", "arrival-1", "arrival-2"), all);
    }
}
