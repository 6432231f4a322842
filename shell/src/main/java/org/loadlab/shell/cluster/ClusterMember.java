package org.loadlab.shell.cluster;

import org.loadlab.shell.metrics.SinkFactory;

import org.loadlab.experiment.campaign.CampaignResults;

import com.typesafe.config.Config;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.Done;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.loadlab.shell.metrics.KamonMetrics;

/**
 * One running cluster member: its actor system (name {@value MemberOptions#SYSTEM}), its
 * {@link Host} (node or balancer role), its {@link Gateway} and the HTTP control API the
 * application binds in front of it ({@link ControlEdge}, gateway role), and Kamon. Leaving is graceful: {@link #leave} (and SIGTERM, through the JVM
 * shutdown hook) runs CoordinatedShutdown, which first has the gateway stop its experiments
 * as DELETE does (results written, journaled as stopped; bounded by
 * {@code loadlab.cluster.shutdown-timeout}), then unbinds HTTP, leaves the cluster, stops
 * Kamon and terminates the system.
 */
public final class ClusterMember {
    /** Artery's remote instruments (run on every remote message). */
    static final String REMOTE_INSTRUMENTS = "pekko.remote.artery.advanced.instruments";

    private final ActorSystem<Void> system;
    private final ClusterSettings settings;
    private final ActorRef<Gateway.Command> gateway;
    private final ControlEdge.Binding binding;
    /** Why {@link #leave} was called, for the experiments' end reason (CoordinatedShutdown's reason is then unknown). */
    private final AtomicReference<String> leaveWhy;

    private ClusterMember(ActorSystem<Void> system, ClusterSettings settings, ActorRef<Gateway.Command> gateway,
                          ControlEdge.Binding binding, AtomicReference<String> leaveWhy) {
        this.system = system;
        this.settings = settings;
        this.gateway = gateway;
        this.binding = binding;
        this.leaveWhy = leaveWhy;
    }

    /**
     * Starts a member with {@code config} (see {@link MemberOptions#config()}) and, with the
     * gateway role, waits until {@code edge} has bound its control API.
     *
     * @param edge binds the HTTP control API in front of the gateway ({@link ControlEdge#NONE} for none)
     * @throws IllegalStateException if the HTTP API cannot be bound or needs a token that is missing
     */
    public static ClusterMember start(Config config, ControlEdge edge) {
        ClusterSettings settings = ClusterSettings.from(config);
        if (!settings.kamonAttach()) {
            config = withoutKamonRemoteInstrument(config);
        }
        if (settings.has("gateway") && settings.journal()) {
            // The gateway journals its experiments (ExperimentEntity) in H2 under the results directory or PostgreSQL.
            config = ExperimentStore.config(settings.resultsDir(), System.getenv()).withFallback(config);
        }
        if (settings.has("gateway")) {
            config = withStopPhaseTimeout(config, settings.shutdownTimeout());
        }
        if (settings.ignoreSigint()) {
            ignoreSigint();
        }
        SinkFactory tees = SinkFactory.NONE;
        if (settings.kamon()) {
            KamonMetrics.start(config, settings.kamonAttach());
            tees = KamonMetrics.sinks();
        }
        CompletableFuture<ActorRef<Gateway.Command>> gatewayRef = new CompletableFuture<>();
        ActorSystem<Void> system = ActorSystem.create(guardian(settings, tees, gatewayRef), MemberOptions.SYSTEM, config);
        if (config.getStringList("pekko.cluster.seed-nodes").isEmpty()) {
            // No seeds: this member starts a cluster of its own (tests, single-JVM use).
            org.apache.pekko.cluster.typed.Cluster cluster = org.apache.pekko.cluster.typed.Cluster.get(system);
            cluster.manager().tell(org.apache.pekko.cluster.typed.Join.create(cluster.selfMember().address()));
        }
        CoordinatedShutdown shutdown = CoordinatedShutdown.get(Adapter.toClassic(system));
        String self = system.address().toString();
        shutdown.addTask(CoordinatedShutdown.PhaseBeforeServiceUnbind(), "say-why", () -> {
            String line = leavingLine(self, shutdown.getShutdownReason().orElse(null),
                    system.settings().config().getDuration("pekko.cluster.split-brain-resolver.stable-after"));
            if (line != null) {
                System.err.println(line);
            }
            return CompletableFuture.completedFuture(Done.getInstance());
        });
        if (settings.kamon()) {
            shutdown.addTask(CoordinatedShutdown.PhaseBeforeActorSystemTerminate(), "kamon-stop", () -> {
                KamonMetrics.stop();
                return CompletableFuture.completedFuture(Done.getInstance());
            });
        }
        ControlEdge.Binding binding = null;
        AtomicReference<String> leaveWhy = new AtomicReference<>();
        try {
            ActorRef<Gateway.Command> gw = gatewayRef.get(30, TimeUnit.SECONDS);
            if (gw != null) {
                // Before HTTP unbinds and the member leaves: its node members are still there to send their last observations.
                shutdown.addTask(STOP_PHASE, "stop-experiments", () -> stopExperiments(system, gw, settings.shutdownTimeout(),
                        shutdownCause(shutdown.getShutdownReason().orElse(null), leaveWhy.get())));
            }
            if (gw != null && edge != ControlEdge.NONE) {
                binding = edge.bind(system, gw, settings).toCompletableFuture().get(30, TimeUnit.SECONDS);
                ControlEdge.Binding b = binding;
                shutdown.addTask(CoordinatedShutdown.PhaseServiceUnbind(), "http-unbind", () -> b.unbind().get());
            }
            ClusterMember member = new ClusterMember(system, settings, gw, binding, leaveWhy);
            member.watchLifetime();
            return member;
        } catch (Exception e) {
            system.terminate();
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IllegalStateException("cannot start the member: " + cause.getMessage(), cause);
        }
    }

    /** The CoordinatedShutdown phase in which a gateway stops its experiments: the first, while everything still runs. */
    static final String STOP_PHASE = CoordinatedShutdown.PhaseBeforeServiceUnbind();
    /** How much longer than {@code shutdown-timeout} the phase may take: for the lines to be printed before it times out. */
    static final Duration STOP_PHASE_MARGIN = Duration.ofSeconds(5);

    /**
     * {@code config} with the timeout of {@link #STOP_PHASE} raised to {@code shutdownTimeout} plus
     * {@link #STOP_PHASE_MARGIN} (Pekko's default for a phase is 5 s, less than a stop that waits
     * {@code stop-timeout} for a slow member); a longer one already configured is kept.
     */
    static Config withStopPhaseTimeout(Config config, Duration shutdownTimeout) {
        String key = "pekko.coordinated-shutdown.phases." + STOP_PHASE + ".timeout";
        Duration wanted = shutdownTimeout.plus(STOP_PHASE_MARGIN);
        Duration configured = config.hasPath(key) ? config.getDuration(key) : Duration.ZERO;
        return configured.compareTo(wanted) >= 0 ? config
                : config.withValue(key, com.typesafe.config.ConfigValueFactory.fromAnyRef(wanted.toMillis() + "ms"));
    }

    /**
     * The gateway's part of CoordinatedShutdown: asks it to stop every experiment under way
     * ({@link Gateway.StopAll}, as DELETE does) and prints, on standard error, one line per
     * experiment: stopped with its results and journal entry, or what is left interrupted.
     * Completes when the gateway has answered (at the latest after {@code within}).
     */
    static CompletionStage<Done> stopExperiments(ActorSystem<Void> system, ActorRef<Gateway.Command> gateway, Duration within,
                                                 String why) {
        return org.apache.pekko.actor.typed.javadsl.AskPattern.<Gateway.Command, Gateway.StopAllReport>ask(gateway,
                        to -> new Gateway.StopAll(why, within, to), within.plus(Duration.ofSeconds(2)), system.scheduler())
                .handle((report, failure) -> {
                    if (failure != null) {
                        System.err.println("loadlab: gateway shutdown: the gateway did not answer within " + within.toMillis() / 1000.0
                                + " s (" + ShutdownLines.TIMEOUT_KEY + "); experiments it ran are left interrupted with their last"
                                + " checkpoint: " + failure);
                    } else {
                        report.lines().forEach(l -> System.err.println("loadlab: gateway shutdown: " + l));
                    }
                    System.err.flush();
                    return Done.getInstance();
                });
    }

    /**
     * Why the member stops, in words, for the experiments' end reason.
     *
     * @param reason CoordinatedShutdown's reason, or null
     * @param leaveWhy the reason given to {@link #leave}, or null
     */
    static String shutdownCause(CoordinatedShutdown.Reason reason, String leaveWhy) {
        if (CoordinatedShutdown.jvmExitReason().equals(reason)) {
            return "SIGTERM or Ctrl-C";
        }
        if (CoordinatedShutdown.clusterDowningReason().equals(reason)) {
            return "the member was downed by the split brain resolver";
        }
        if (CoordinatedShutdown.clusterLeavingReason().equals(reason)) {
            return "the member left the cluster";
        }
        return leaveWhy != null ? leaveWhy : "the member is stopping";
    }

    /**
     * Ignores SIGINT in this JVM ({@code loadlab.cluster.ignore-sigint}, set by local-cluster
     * for its children): Ctrl-C in a terminal goes to every process of the foreground group, so
     * without this the node members would leave while the gateway still collects their last
     * observations; local-cluster stops them itself, the gateway first. Through reflection:
     * {@code sun.misc.Signal} (jdk.unsupported) has no public replacement, and a direct use is a
     * compiler warning. Where it is missing the member keeps the JVM's handling (it then stops on
     * Ctrl-C with the others).
     */
    private static void ignoreSigint() {
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handler = Class.forName("sun.misc.SignalHandler");
            Object ignore = handler.getField("SIG_IGN").get(null);
            signal.getMethod("handle", signal, handler).invoke(null, signal.getConstructor(String.class).newInstance("INT"), ignore);
        } catch (ReflectiveOperationException | RuntimeException e) {
            System.err.println("loadlab: cannot ignore SIGINT here (" + e + "); Ctrl-C stops this member at once");
        }
    }

    /**
     * {@code config} without Kamon's Artery RemoteInstrument: kamon-bundle's reference.conf adds it, and it then runs
     * on every remote message (context propagation) although the instrumentation it serves is not attached.
     */
    public static Config withoutKamonRemoteInstrument(Config config) {
        if (!config.hasPath(REMOTE_INSTRUMENTS)) {
            return config;
        }
        return config.withValue(REMOTE_INSTRUMENTS, com.typesafe.config.ConfigValueFactory.fromIterable(
                config.getStringList(REMOTE_INSTRUMENTS).stream().filter(c -> !c.contains("Kamon")).toList()));
    }

    private static Behavior<Void> guardian(ClusterSettings settings, SinkFactory tees,
                                           CompletableFuture<ActorRef<Gateway.Command>> gateway) {
        return Behaviors.setup(ctx -> {
            if (settings.has("node") || settings.has("balancer")) {
                ctx.spawn(Host.create(settings, tees), "host");
            }
            if (settings.has(CampaignSharding.ROLE)) {
                // Members with the node role also run the runs of campaigns spread over the cluster (campaign run --cluster).
                CampaignSharding.init(ctx.getSystem(), CampaignResults::execute);
            }
            gateway.complete(settings.has("gateway") ? ctx.spawn(Gateway.create(settings, tees), "gateway") : null);
            return Behaviors.empty();
        });
    }

    /** Stops the member after max-lifetime, and when stdin closes if so configured. */
    private void watchLifetime() {
        Duration life = settings.maxLifetime();
        if (!life.isZero() && !life.isNegative()) {
            system.scheduler().scheduleOnce(life, () -> leave("max-lifetime " + life.toSeconds() + " s reached"),
                    system.executionContext());
        }
        if (settings.exitOnStdinEof()) {
            Thread t = new Thread(() -> {
                try {
                    InputStream in = System.in;
                    while (in.read() >= 0) {
                        // the parent writes nothing; we only wait for end of file
                    }
                } catch (IOException e) {
                    // a broken pipe means the parent is gone, too
                }
                leave("standard input closed (parent process gone)");
            }, "stdin-watch");
            t.setDaemon(true);
            t.start();
        }
    }

    /**
     * The line a member prints when it stops for a reason other than {@link #leave} (which says
     * its own): a JVM exit (SIGTERM, Ctrl-C) is a graceful leave; a downing means the split
     * brain resolver removed it (members were unreachable for longer than {@code stable-after}
     * and it was on the side that goes: paused, cut off, or in the minority) and it exits with code 255 (Pekko's exit code for a
     * downed member) and must be restarted to rejoin; a member that found no seed to join
     * exits the same way. Without these lines the process just ended among Pekko's warnings.
     *
     * @param self the member's address
     * @param reason CoordinatedShutdown's reason, or null
     * @param stableAfter the split brain resolver's {@code stable-after}
     * @return the line, or null when there is nothing to add ({@link #leave} or an unknown reason)
     */
    static String leavingLine(String self, CoordinatedShutdown.Reason reason, Duration stableAfter) {
        if (CoordinatedShutdown.clusterDowningReason().equals(reason)) {
            return "loadlab: " + self + " was downed by the cluster's split brain resolver (members were unreachable for"
                    + " longer than stable-after " + stableAfter.toMillis() / 1000.0 + " s and this member was on the side it"
                    + " removes: paused, overloaded, cut off, or left in the minority); it exits with code 255. Start it"
                    + " again to rejoin as a new member";
        }
        if (CoordinatedShutdown.clusterJoinUnsuccessfulReason().equals(reason)) {
            return "loadlab: " + self + " could not join any seed node (pekko.cluster.shutdown-after-unsuccessful-join-seed-nodes"
                    + " passed); it exits with code 255. Check --seed-nodes: the first seed must be running (or be this member)";
        }
        if (CoordinatedShutdown.jvmExitReason().equals(reason)) {
            return "loadlab: " + self + " leaving: the JVM is exiting (SIGTERM or Ctrl-C); leaving the cluster gracefully";
        }
        if (CoordinatedShutdown.clusterLeavingReason().equals(reason)) {
            return "loadlab: " + self + " left the cluster; stopping";
        }
        return null;
    }

    /** Leaves the cluster gracefully and terminates the system (CoordinatedShutdown). */
    public CompletionStage<Done> leave(String why) {
        System.err.println("loadlab: " + system.address() + " leaving: " + why);
        leaveWhy.compareAndSet(null, why);
        return CoordinatedShutdown.get(Adapter.toClassic(system)).runAll(CoordinatedShutdown.unknownReason());
    }

    /** Blocks until the actor system has terminated. */
    public void awaitTermination() {
        system.getWhenTerminated().toCompletableFuture().join();
    }

    /** The member's actor system. */
    public ActorSystem<Void> system() {
        return system;
    }

    /** The gateway actor, or null without the gateway role. */
    public ActorRef<Gateway.Command> gateway() {
        return gateway;
    }

    /** The bound HTTP port, or −1 without the gateway role (or without an edge). */
    public int httpPort() {
        return binding == null ? -1 : binding.port();
    }

    /** The member's settings. */
    public ClusterSettings settings() {
        return settings;
    }
}
