package org.loadlab.shell.lints;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.persistence.jdbc.testkit.javadsl.SchemaUtils;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loadlab.balancer.lints.LinTsControlPlane;
import org.loadlab.balancer.lints.LinTsSettings;
import org.loadlab.balancer.lints.RewardWindow;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.MetricsSink;
import org.loadlab.kernel.ServiceId;
import org.loadlab.shell.actor.Directory;
import org.loadlab.shell.actor.LiveClock;
import org.loadlab.shell.actor.LogicActor;
import org.loadlab.shell.campaign.CampaignStore;

/**
 * The LinTS posterior survives a restart: a control plane's B and f are stored by the keeper in
 * the H2 journal, the actor system stops, and a new control plane in a new actor system on the
 * same store starts from them, not from the prior.
 */
class PosteriorPersistenceTest {
    @TempDir
    Path dir;

    private Config config() {
        return ConfigFactory.parseString("pekko.loglevel = WARNING\npekko.log-dead-letters = off")
                .withFallback(CampaignStore.config(dir, java.util.Map.of()))
                .withFallback(ConfigFactory.defaultReference()).resolve();
    }

    private ActorSystem<Void> system() throws Exception {
        ActorSystem<Void> s = ActorSystem.create(Behaviors.empty(), "lints-store", config());
        SchemaUtils.createIfNotExists(s).toCompletableFuture().get(30, TimeUnit.SECONDS);
        return s;
    }

    private static void stop(ActorSystem<Void> s) throws Exception {
        s.terminate();
        s.getWhenTerminated().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }

    @Test
    void aRestartedControlPlaneResumesFromTheStoredPosteriorNotThePrior() throws Exception {
        LinTsControlPlane first = new LinTsControlPlane(LinTsSettings.DEFAULTS, 3, List.of());
        first.model().weights(new double[][] {{1, 0.2, 0, 0.1, 0.5, 0}, {1, 0.9, 1, 1.5, 0.5, 0}, null},
                new SplittableRandom(3));
        first.model().update(new RewardWindow.NodeFeedback[] {new RewardWindow.NodeFeedback(0, 20, 40, 0, 0),
                new RewardWindow.NodeFeedback(1, 20, 900, 0.4, 0.9)});
        double[] learnedB = first.model().arm(1).precision();
        double[] learnedF = first.model().arm(1).accumulated();

        ActorSystem<Void> one = system();
        ActorRef<PosteriorEntity.Command> store = one.systemActorOf(PosteriorEntity.create("gateway-a"), "store", 
                org.apache.pekko.actor.typed.Props.empty());
        assertFalse(PosteriorKeeper.restore(one, store, new LinTsControlPlane(LinTsSettings.DEFAULTS, 3, List.of()),
                Duration.ofSeconds(10)), "nothing stored yet: the prior");
        LogicActor.Wiring wiring = new LogicActor.Wiring(new ServiceId(0), new Directory(), LiveClock.startingNow(1.0),
                new SplittableRandom(1), MetricsSink.NONE, null);
        ActorRef<Message> actor = one.systemActorOf(LogicActor.create(first, wiring), "control-plane",
                org.apache.pekko.actor.typed.Props.empty());
        one.systemActorOf(PosteriorKeeper.keeper(actor, store, Duration.ofMillis(50)), "keeper",
                org.apache.pekko.actor.typed.Props.empty());
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> PosteriorKeeper.restore(one, store,
                new LinTsControlPlane(LinTsSettings.DEFAULTS, 3, List.of()), Duration.ofSeconds(5)));
        stop(one);

        ActorSystem<Void> two = system();
        try {
            ActorRef<PosteriorEntity.Command> again = two.systemActorOf(PosteriorEntity.create("gateway-a"), "store",
                    org.apache.pekko.actor.typed.Props.empty());
            LinTsControlPlane restarted = new LinTsControlPlane(LinTsSettings.DEFAULTS, 3, List.of());
            assertTrue(PosteriorKeeper.restore(two, again, restarted, Duration.ofSeconds(10)));
            assertArrayEquals(learnedB, restarted.model().arm(1).precision(), 0, "B of node 1 restored");
            assertArrayEquals(learnedF, restarted.model().arm(1).accumulated(), 0, "f of node 1 restored");
            assertEquals(1, restarted.model().steps());
            assertTrue(restarted.model().arm(1).mean()[0] < -1, "theta is solved again, far from the prior 0");
            ActorRef<PosteriorEntity.Command> other = two.systemActorOf(PosteriorEntity.create("gateway-b"), "other",
                    org.apache.pekko.actor.typed.Props.empty());
            assertFalse(PosteriorKeeper.restore(two, other, new LinTsControlPlane(LinTsSettings.DEFAULTS, 3, List.of()),
                    Duration.ofSeconds(10)), "another control plane's store is its own");
        } finally {
            stop(two);
        }
    }
}
