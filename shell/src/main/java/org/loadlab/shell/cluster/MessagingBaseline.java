package org.loadlab.shell.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.Message;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.NodeMessage;

/**
 * The messaging baseline of the cluster benchmark: bare Pekko remoting between JVMs with
 * the cluster's own message records and CBOR serialisation, and nothing else (no cores, no
 * observations, no merge). A pinger plays the balancer: it keeps {@code window} requests
 * going, each as p2c makes them on the cluster — two {@code Probe}s to two echo JVMs, and
 * when both {@code ProbeReply}s are in, a {@code Request} answered by a {@code Response} —
 * so three round trips, six remote messages, per request. Echo JVMs play the nodes and
 * answer at once. The requests per second it sustains is the ideal the cluster's throughput
 * is measured against (docs/cluster.md, "Throughput").
 */
public final class MessagingBaseline {
    private MessagingBaseline() {
    }

    /** Round trips per request of p2c on the probe model: two probes and the request itself. */
    public static final int ROUND_TRIPS_PER_REQUEST = 3;

    /** The pinger introduces itself so that the echo knows where replies go (the cluster's Directory does this). */
    public record Hello(ActorRef<Message> pinger) implements Message {
        @Override
        public int estimatedBytes() {
            return 64;
        }
    }

    /**
     * What a pinger measured.
     *
     * @param requests requests completed in the measured window
     * @param seconds the window, seconds
     * @param requestsPerSecond requests/s
     * @param roundTripsPerSecond round trips/s ({@link #ROUND_TRIPS_PER_REQUEST} per request)
     */
    public record Result(long requests, double seconds, double requestsPerSecond, double roundTripsPerSecond) {
    }

    /** The remoting settings the baseline shares with the cluster members (a classpath resource). */
    static final String REMOTING = "loadlab-remoting.conf";

    /**
     * The configuration of a baseline JVM: plain remoting (no cluster) on 127.0.0.1:{@code port},
     * with the cluster members' dispatchers and header compression ({@value #REMOTING}, which
     * loadlab-cluster.conf includes).
     */
    public static Config config(int port) {
        return ConfigFactory.parseString("""
                        pekko.actor.provider = remote
                        pekko.remote.artery.canonical.hostname = "127.0.0.1"
                        pekko.remote.artery.canonical.port = %d
                        pekko.loglevel = WARNING
                        pekko.stdout-loglevel = WARNING
                        pekko.log-dead-letters = off
                        pekko.remote.warn-about-direct-use = off
                        pekko.remote.warn-unsafe-watch-outside-cluster = off
                        """.formatted(port))
                .withFallback(ConfigFactory.parseResources(MessagingBaseline.class.getClassLoader(), REMOTING))
                .withFallback(ConfigFactory.defaultReference()).resolve();
    }

    /** Starts an echo JVM's actor system (actor {@code /user/echo}); it runs until terminated. */
    public static ActorSystem<Message> startEcho(int port) {
        return ActorSystem.create(echo(), MemberOptions.SYSTEM, config(port));
    }

    private static Behavior<Message> echo() {
        return Behaviors.setup(ctx -> {
            ActorRef<Message>[] pinger = newRefs();
            LoadSnapshot load = new LoadSnapshot(3, 2, 1, 100.0, 0.4, 0.3, 0.2, 0.1, 1.0, 0.0, true);
            return Behaviors.receive(Message.class)
                    .onMessage(Hello.class, h -> {
                        pinger[0] = h.pinger();
                        return Behaviors.same();
                    })
                    .onMessage(NodeMessage.Probe.class, p -> {
                        pinger[0].tell(new BalancerMessage.ProbeReply(p.probeId(), load));
                        return Behaviors.same();
                    })
                    .onMessage(NodeMessage.Request.class, r -> {
                        pinger[0].tell(new BalancerMessage.Response(r.id(), 3, r.arrivalTime(), true));
                        return Behaviors.same();
                    })
                    .build();
        });
    }

    @SuppressWarnings("unchecked")
    private static ActorRef<Message>[] newRefs() {
        return (ActorRef<Message>[]) new ActorRef<?>[1];
    }

    /**
     * Runs a pinger against the echo JVMs at {@code echoPorts} on 127.0.0.1 and measures.
     *
     * @param port this JVM's remoting port
     * @param echoPorts the echo JVMs' ports (probes and requests go round-robin over them)
     * @param window requests kept going at once
     * @param warmupSeconds run this long before measuring (JIT, connections)
     * @param seconds measure this long
     * @return what it measured
     * @throws IllegalStateException if an echo cannot be reached
     */
    public static Result ping(int port, List<Integer> echoPorts, int window, double warmupSeconds, double seconds)
            throws Exception {
        CompletableFuture<Result> result = new CompletableFuture<>();
        ActorSystem<Go> system = ActorSystem.create(Behaviors.setup(ctx -> Behaviors.receive(Go.class).onMessage(Go.class, g -> {
            ctx.spawn(g.behavior(), "pinger");
            return Behaviors.same();
        }).build()), MemberOptions.SYSTEM + "-ping", config(port));
        try {
            org.apache.pekko.actor.ActorSystem classic = Adapter.toClassic(system);
            @SuppressWarnings("unchecked")
            ActorRef<Message>[] echoes = (ActorRef<Message>[]) new ActorRef<?>[echoPorts.size()];
            for (int i = 0; i < echoes.length; i++) {
                String path = "pekko://" + MemberOptions.SYSTEM + "@127.0.0.1:" + echoPorts.get(i) + "/user";
                echoes[i] = Adapter.toTyped(classic.actorSelection(path).resolveOne(Duration.ofSeconds(20))
                        .toCompletableFuture().get(30, TimeUnit.SECONDS));
            }
            system.tell(new Go(pinger(echoes, window, warmupSeconds, seconds, result)));
            return result.get((long) (warmupSeconds + seconds + 60), TimeUnit.SECONDS);
        } finally {
            system.terminate();
            system.getWhenTerminated().toCompletableFuture().get(20, TimeUnit.SECONDS);
        }
    }

    /** Local: the guardian spawns the pinger. */
    private record Go(Behavior<Message> behavior) {
    }

    private record Measure() implements Message {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    private record Done() implements Message {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    private static Behavior<Message> pinger(ActorRef<Message>[] echoes, int window, double warmup, double seconds,
                                            CompletableFuture<Result> result) {
        return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
            for (ActorRef<Message> e : echoes) {
                e.tell(new Hello(ctx.getSelf()));
            }
            BalancerId self = new BalancerId(0);
            int[] replies = new int[window];
            long[] state = new long[4]; // next id, completed, completed at measure start, measure start (ns)
            java.util.function.LongConsumer begin = id -> {
                int slot = (int) (id % window);
                replies[slot] = 0;
                int a = (int) (id % echoes.length);
                echoes[a].tell(new NodeMessage.Probe(id, self));
                echoes[(a + 1) % echoes.length].tell(new NodeMessage.Probe(id, self));
            };
            for (int i = 0; i < window; i++) {
                begin.accept(state[0]++);
            }
            timers.startSingleTimer(new Measure(), Duration.ofMillis((long) (warmup * 1000)));
            return Behaviors.receive(Message.class)
                    .onMessage(BalancerMessage.ProbeReply.class, r -> {
                        int slot = (int) (r.probeId() % window);
                        if (++replies[slot] == 2) {
                            echoes[(int) ((r.probeId() + 2) % echoes.length)].tell(
                                    new NodeMessage.Request(r.probeId(), 0.01, 0.0, self));
                        }
                        return Behaviors.same();
                    })
                    .onMessage(BalancerMessage.Response.class, r -> {
                        state[1]++;
                        begin.accept(state[0]++);
                        return Behaviors.same();
                    })
                    .onMessage(Measure.class, m -> {
                        state[2] = state[1];
                        state[3] = System.nanoTime();
                        timers.startSingleTimer(new Done(), Duration.ofMillis((long) (seconds * 1000)));
                        return Behaviors.same();
                    })
                    .onMessage(Done.class, d -> {
                        double s = (System.nanoTime() - state[3]) / 1e9;
                        long n = state[1] - state[2];
                        result.complete(new Result(n, s, n / s, n * ROUND_TRIPS_PER_REQUEST / s));
                        return Behaviors.stopped();
                    })
                    .build();
        }));
    }
}
