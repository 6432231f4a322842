package org.loadlab.app.cli;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.persistence.jdbc.testkit.javadsl.SchemaUtils;
import org.loadlab.app.http.GatewayRoutes;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.shell.campaign.CampaignStore;
import org.loadlab.shell.persistence.JdbcJournal;
import org.loadlab.shell.gateway.AutonomousStack;
import org.loadlab.shell.gateway.Strategies;
import org.loadlab.shell.lints.PosteriorEntity;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code loadlab gateway}: seed 003's HTTP gateway in front of the live autonomous system
 * (nodes, one balancer per strategy, the LinTS control plane, the autoscaler: the cores of the
 * simulation as actors, one JVM, real time) until it is stopped or {@code --max-lifetime}
 * passes. The LinTS posterior is kept in the H2 journal under {@code --state-dir} and restored
 * at the next start; one gateway at a time may use a state directory ({@link DirLock}).
 * Before anything starts, the state directory is checked (a directory, writable, not locked)
 * and the port proven free: each is one line naming the flag and exit code 2. SIGTERM and
 * Ctrl-C stop it quietly: unbind, then terminate the actor system.
 */
@Command(name = "gateway", mixinStandardHelpOptions = true,
        description = {"Serve seed 003's HTTP gateway over the live autonomous system.",
                "",
                "Endpoints: GET /auth /checkout /play-video /analytics /logs, /explain-routing, /chaos/inject, "
                        + "/chaos/clear, /strategy, /metrics (docs/autonomous.md)."})
final class GatewayCommand implements Callable<Integer> {
    @Option(names = "--scenario", defaultValue = "autonomous", paramLabel = "NAME|FILE",
            description = "The cluster: nodes, guardrails, shedding, control plane, autoscaler; its nodes must be"
                    + " seed 003's profile nodes (default autonomous).")
    private String scenario;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override a scenario key (repeatable).")
    private List<String> sets = new ArrayList<>();

    @Option(names = "--strategy", defaultValue = "lin_ts", paramLabel = "NAME",
            description = "Default strategy: lin_ts, least_conn, p2c, round_robin, weighted_round_robin (default lin_ts).")
    private String strategy;

    @Option(names = "--host", defaultValue = "127.0.0.1", paramLabel = "HOST", description = "Bind address (default 127.0.0.1).")
    private String host;

    @Option(names = "--port", defaultValue = "8000", paramLabel = "P", description = "HTTP port (default 8000, the seed's).")
    private int port;

    @Option(names = "--seed", defaultValue = "101", paramLabel = "N", description = "Master seed of the cores' random streams.")
    private long seed;

    @Option(names = "--state-dir", paramLabel = "DIR",
            description = "Where the LinTS posterior is kept, one gateway at a time (default results/gateway).")
    private Path stateDir;

    @Option(names = "--max-lifetime", defaultValue = "0", paramLabel = "SECONDS",
            description = "Stop after this many seconds (0, the default: run until stopped; >= 0).")
    private double maxLifetime;

    /** How long a stop (SIGTERM, Ctrl-C) waits for the gateway to unbind and its actor system to terminate. */
    private static final long STOP_SECONDS = 30;

    @Override
    public Integer call() throws Exception {
        String policy = Strategies.policyOf(strategy).orElseThrow(() -> new BadInputException(
                "--strategy = '" + strategy + "': allowed " + Strategies.allowed()));
        if (port < 0 || port > 65535) {
            throw new BadInputException("--port = " + port + ": allowed 0..65535");
        }
        if (!(maxLifetime >= 0 && Double.isFinite(maxLifetime))) {
            throw new BadInputException("--max-lifetime = " + maxLifetime + ": allowed 0 (run until stopped) or a positive"
                    + " number of seconds");
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (java.net.UnknownHostException e) {
            throw new BadInputException("--host = " + host + ": the name does not resolve; allowed a loopback address"
                    + " (127.0.0.1, ::1, localhost)");
        }
        if (!address.isLoopbackAddress()) {
            throw new BadInputException("--host = " + host + ": the gateway has no authentication; allowed a loopback address"
                    + " (127.0.0.1, ::1)");
        }
        if (port != 0 && !Ports.free(address, port)) {
            throw portInUse();
        }
        List<String> overrides = new ArrayList<>(sets);
        overrides.add("balancers.count = " + Strategies.POLICIES.size());
        Scenario s = Scenarios.loader().load(scenario, overrides); // a bad key: exit 2 with every problem (CliErrors)
        GatewayScenarios.check(s, scenario);
        double limit = org.loadlab.app.http.GatewayRoutes.REQUEST_TIMEOUT.toMillis() / 1000.0;
        if (s.balancers().requestTimeout() >= limit) {
            // the gateway's own wait answers 504 first, so such a timeout would never end a request
            throw new BadInputException("balancers.request-timeout = " + s.balancers().requestTimeout() + ": the gateway answers"
                    + " 504 itself " + limit + " s after receipt, so this timeout would never end a request; allowed 0 (none)"
                    + " or a number of seconds below " + limit);
        }
        Path dir = stateDir != null ? stateDir : Path.of("results", "gateway");
        String what = OutputDir.describe(dir, "--state-dir", stateDir != null);
        OutputDir.prepare(dir, "--state-dir", stateDir != null);
        Path journal = dir.resolve("journal");
        if (Files.exists(journal) && !Files.isDirectory(journal)) {
            throw new BadInputException(what + ": " + journal + " is a file, where the journal's directory goes; move it away"
                    + " or choose another --state-dir");
        }
        try (DirLock lock = DirLock.acquire(dir, what, DirLock.GATEWAY)) {
            return serve(s, policy, dir);
        }
    }

    private BadInputException portInUse() {
        return new BadInputException("--port = " + port + ": port " + port + " is in use on " + host
                + "; stop the process using it (another gateway?) or choose another --port");
    }

    /** Runs the gateway until a stop signal or {@code --max-lifetime}; the state directory is checked and locked. */
    private int serve(Scenario s, String policy, Path dir) throws Exception {
        // The gateway stops itself (below) rather than by Pekko's JVM shutdown hook: that hook is
        // only registered when CoordinatedShutdown is first used, which for this system is at
        // terminate(), when a signal has already started the JVM's shutdown and no hook can be
        // added ("Could not addJvmShutdownHook, due to: Shutdown in progress").
        Config config = ConfigFactory.parseString("pekko.loglevel = WARNING\npekko.log-dead-letters = off\n"
                        + "pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off")
                // The posterior keeper may be saving when SIGTERM arrives, and the stop below runs
                // inside the JVM's shutdown: H2's own shutdown hook must not close the file under it.
                .withFallback(JdbcJournal.config(dir, "campaign", System.getenv(), true))
                .withFallback(ConfigFactory.defaultReference()).resolve();
        ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "loadlab-gateway", config);
        CountDownLatch done = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        // On SIGTERM or Ctrl-C: wake the main thread and keep the JVM up until it has unbound and
        // terminated the actor system (the journal's last writes included), or STOP_SECONDS pass.
        Thread hook = new Thread(() -> {
            done.countDown();
            try {
                stopped.await(STOP_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "gateway-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            SchemaUtils.createIfNotExists(system).toCompletableFuture().get(60, TimeUnit.SECONDS);
            ActorRef<PosteriorEntity.Command> store = system.systemActorOf(PosteriorEntity.create("gateway-" + s.name()),
                    "posterior", Props.empty());
            AutonomousStack stack = AutonomousStack.start(system, s, policy, seed, store);
            ServerBinding binding;
            try {
                binding = Http.get(system).newServerAt(host, port).bind(new GatewayRoutes(stack).routes())
                        .toCompletableFuture().get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof java.net.BindException) {
                    throw portInUse(); // taken between the check and the bind
                }
                throw e;
            }
            System.out.printf("Gateway on http://%s:%d (strategy %s, %d node slots, scenario %s); posterior in %s%n",
                    host, binding.localAddress().getPort(), Strategies.seedName(policy), stack.nodeCount(), s.name(),
                    CampaignStore.describe(dir, System.getenv()));
            System.out.flush();
            if (maxLifetime > 0) {
                done.await((long) (maxLifetime * 1000), TimeUnit.MILLISECONDS);
            } else {
                done.await();
            }
            binding.unbind().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } finally {
            try {
                system.terminate();
                system.getWhenTerminated().toCompletableFuture().get(20, TimeUnit.SECONDS);
            } finally {
                stopped.countDown();
                removeHook(hook);
            }
        }
        return 0;
    }

    /** Removes the stop hook when the gateway ended by itself ({@code --max-lifetime}, a failure); during a shutdown it cannot be. */
    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running: it is what stopped the gateway
        }
    }
}
