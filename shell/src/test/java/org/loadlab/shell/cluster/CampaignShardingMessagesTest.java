package org.loadlab.shell.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.apache.pekko.serialization.Serializers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.experiment.campaign.CampaignLoader;
import org.loadlab.experiment.campaign.CampaignPlan;
import org.loadlab.experiment.campaign.CampaignResults;
import org.loadlab.experiment.scenario.ScenarioLoader;
import org.loadlab.kernel.CborSerializable;

/**
 * The messages between a cluster campaign's coordinator and its run entities round-trip as
 * Jackson CBOR, and a run rebuilt on a member from the resolved scenario JSON it is sent is
 * the run the coordinator planned: the same resolved scenario, policy, seed and parameters,
 * and the same result JSON byte for byte — what makes a run simulated on any member give the
 * bytes it gives on one machine.
 */
class CampaignShardingMessagesTest {
    private static final ActorTestKit KIT = ActorTestKit.create();

    @AfterAll
    static void stop() {
        KIT.shutdownTestKit();
    }

    private static CampaignPlan plan() {
        ScenarioLoader scenarios = new ScenarioLoader(n -> PolicyCatalog.find(n).isPresent(), PolicyCatalog.names());
        return new CampaignLoader(scenarios).load("policy-sweep", "101:102");
    }

    private static CampaignSharding.ExecuteRun execute(CampaignPlan.PlannedRun r, ActorRef<CampaignSharding.RunReply> to) {
        return new CampaignSharding.ExecuteRun("policy-sweep-1", r.index(), r.scenario(), r.parameters(), r.variant(),
                r.spec().scenario().resolvedJson(), Path.of(".").toAbsolutePath().toString(), r.spec().policy(), r.spec().seed(), to);
    }

    @Test
    void everyMessageRoundTripsAsCbor() {
        ActorRef<CampaignSharding.RunReply> to = KIT.<CampaignSharding.RunReply>createTestProbe().ref();
        String member = "pekko://loadlab@127.0.0.1:2552";
        List<CborSerializable> messages = List.of(execute(plan().runs().get(5), to),
                new CampaignSharding.RunAccepted(5, member),
                new CampaignSharding.RunChunk(5, member, "entity#1", 0, 2, "{\"policy\":\"p2c\""),
                new CampaignSharding.RunFailed(5, member, "IllegalStateException: no such trace"),
                new CampaignSharding.RunAbandoned(5, member));
        Set<Class<?>> listed = new HashSet<>();
        messages.forEach(m -> listed.add(m.getClass()));
        for (Class<?> c : CampaignSharding.class.getDeclaredClasses()) {
            if (c.isRecord() && CborSerializable.class.isAssignableFrom(c)) {
                assertTrue(listed.contains(c), c.getSimpleName() + " needs a round-trip case");
            }
        }
        Serialization serialization = SerializationExtension.get(Adapter.toClassic(KIT.system()));
        for (CborSerializable m : messages) {
            Serializer serializer = serialization.findSerializerFor(m);
            assertTrue(serializer.getClass().getName().contains("JacksonCborSerializer"), m.getClass() + " uses " + serializer);
            byte[] bytes = serialization.serialize(m).get();
            assertTrue(bytes.length < 256 * 1024, m.getClass().getSimpleName() + " fits one Artery frame: " + bytes.length);
            Object back = serialization.deserialize(bytes, serializer.identifier(), Serializers.manifestFor(serializer, m)).get();
            assertEquals(m, back, "round trip of " + m.getClass().getSimpleName());
        }
    }

    @Test
    void aRunRebuiltFromWhatItIsSentGivesThePlannedRunsResultByteForByte() {
        List<CampaignPlan.PlannedRun> runs = plan().runs();
        // Every policy variant at two sweep points (Scenario.equals cannot be used: a record with an array component
        // compares it by identity).
        for (int i = 0; i < runs.size(); i += 5) {
            CampaignPlan.PlannedRun r = runs.get(i);
            CampaignPlan.PlannedRun rebuilt = CampaignRunEntity.plannedRun(execute(r, null));
            assertEquals(r.spec().scenario().resolvedJson(), rebuilt.spec().scenario().resolvedJson(), "run " + i + ": scenario");
            assertEquals(List.of(r.index(), r.scenario(), r.parameters(), r.variant(), r.spec().policy(), r.spec().seed()),
                    List.of(rebuilt.index(), rebuilt.scenario(), rebuilt.parameters(), rebuilt.variant(), rebuilt.spec().policy(),
                            rebuilt.spec().seed()), "run " + i);
            assertEquals(CampaignResults.execute(r), CampaignResults.execute(rebuilt), "run " + i + ": the result JSON");
        }
    }

    @Test
    void consecutiveRunsAreInConsecutiveShards() {
        assertEquals("0", CampaignSharding.shardOf("policy-sweep-1a2b#0"));
        assertEquals("7", CampaignSharding.shardOf("policy-sweep-1a2b#7"));
        assertEquals("7", CampaignSharding.shardOf("policy-sweep-1a2b#" + (CampaignSharding.SHARDS + 7)));
    }
}
