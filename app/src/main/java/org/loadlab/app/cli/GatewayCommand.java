package org.loadlab.app.cli;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
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
 * at the next start.
 */
@Command(name = "gateway", mixinStandardHelpOptions = true,
        description = {"Seed 003's HTTP gateway (GET /auth /checkout /play-video /analytics /logs, /explain-routing,",
                "/chaos/inject, /chaos/clear, /strategy, /metrics) over the live autonomous system (docs/autonomous.md)."})
final class GatewayCommand implements Callable<Integer> {
    @Option(names = "--scenario", defaultValue = "autonomous", paramLabel = "NAME|FILE",
            description = "The cluster: nodes, guardrails, shedding, control plane, autoscaler (default autonomous).")
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

    @Option(names = "--state-dir", paramLabel = "DIR", description = "Where the LinTS posterior is kept (default results/gateway).")
    private Path stateDir = Path.of("results", "gateway");

    @Option(names = "--max-lifetime", defaultValue = "0", paramLabel = "SECONDS",
            description = "Stop after this many seconds (0: run until stopped).")
    private double maxLifetime;

    @Override
    public Integer call() throws Exception {
        String policy = Strategies.policyOf(strategy).orElseThrow(() -> new BadInputException(
                "--strategy = '" + strategy + "': allowed " + Strategies.allowed()));
        if (port < 0 || port > 65535) {
            throw new BadInputException("--port = " + port + ": allowed 0..65535");
        }
        if (!InetAddress.getByName(host).isLoopbackAddress()) {
            throw new BadInputException("--host = " + host + ": the gateway has no authentication; allowed a loopback address"
                    + " (127.0.0.1, ::1)");
        }
        List<String> overrides = new ArrayList<>(sets);
        overrides.add("balancers.count = " + Strategies.POLICIES.size());
        Scenario s = Scenarios.loader().load(scenario, overrides); // a bad key: exit 2 with every problem (CliErrors)
        Config config = ConfigFactory.parseString("pekko.loglevel = WARNING\npekko.log-dead-letters = off")
                .withFallback(CampaignStore.config(stateDir, System.getenv()))
                .withFallback(ConfigFactory.defaultReference()).resolve();
        ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "loadlab-gateway", config);
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(done::countDown));
        try {
            SchemaUtils.createIfNotExists(system).toCompletableFuture().get(60, TimeUnit.SECONDS);
            ActorRef<PosteriorEntity.Command> store = system.systemActorOf(PosteriorEntity.create("gateway-" + s.name()),
                    "posterior", Props.empty());
            AutonomousStack stack = AutonomousStack.start(system, s, policy, seed, store);
            ServerBinding binding = Http.get(system).newServerAt(host, port).bind(new GatewayRoutes(stack).routes())
                    .toCompletableFuture().get(30, TimeUnit.SECONDS);
            System.out.printf("Gateway on http://%s:%d (strategy %s, %d node slots, scenario %s); posterior in %s%n",
                    host, binding.localAddress().getPort(), Strategies.seedName(policy), stack.nodeCount(), s.name(),
                    CampaignStore.describe(stateDir, System.getenv()));
            System.out.flush();
            if (maxLifetime > 0) {
                done.await((long) (maxLifetime * 1000), TimeUnit.MILLISECONDS);
            } else {
                done.await();
            }
            binding.unbind().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } finally {
            system.terminate();
            system.getWhenTerminated().toCompletableFuture().get(20, TimeUnit.SECONDS);
        }
        return 0;
    }
}
