package org.loadlab.shell.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit.CommandResultWithReply;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The campaign entity on Pekko Persistence's {@link EventSourcedBehaviorTestKit} (in-memory
 * journal; every command, event and state also round-trips through the CBOR serializer the
 * JDBC journal uses): commands become the documented events and state; a restart recovers
 * the state from the events alone; a repeated start, a run recorded twice and a second finish
 * are answered without a new event and change nothing (that is what makes a resumed campaign
 * neither repeat nor lose a run).
 */
class CampaignEntityTest {
    private static final ActorTestKit KIT = ActorTestKit.create(EventSourcedBehaviorTestKit.config());
    private static final String DEFINITION = "{\"name\":\"t\",\"runs\":3}";

    private final EventSourcedBehaviorTestKit<CampaignEntity.Command, CampaignEntity.Event, CampaignEntity.State> entity =
            EventSourcedBehaviorTestKit.create(KIT.system(), CampaignEntity.create("test-campaign"));

    @AfterAll
    static void shutdown() {
        KIT.shutdownTestKit();
    }

    @BeforeEach
    void emptyJournal() {
        entity.clear();
    }

    private CommandResultWithReply<CampaignEntity.Command, CampaignEntity.Event, CampaignEntity.State, CampaignEntity.State> start(
            String definition, int runs) {
        return entity.runCommand(r -> new CampaignEntity.Start(definition, runs, r));
    }

    private CommandResultWithReply<CampaignEntity.Command, CampaignEntity.Event, CampaignEntity.State, Done> record(int index, String json) {
        return entity.runCommand(r -> new CampaignEntity.RecordRuns(java.util.Map.of(index, json), r));
    }

    private CampaignEntity.State state() {
        return entity.<CampaignEntity.State>runCommand(CampaignEntity.GetState::new).reply();
    }

    @Test
    void aNewEntityIsEmptyAndNotStarted() {
        CampaignEntity.State s = state();
        assertFalse(s.started());
        assertNull(s.definitionJson());
        assertEquals(0, s.totalRuns());
        assertTrue(s.completed().isEmpty());
        assertFalse(s.finished());
        assertTrue(entity.<CampaignEntity.State>runCommand(CampaignEntity.GetState::new).hasNoEvents(), "reading stores nothing");
    }

    @Test
    void startStoresTheDefinitionOnceAndAnswersTheState() {
        var first = start(DEFINITION, 3);
        assertEquals(new CampaignEntity.CampaignStarted(DEFINITION, 3), first.event());
        assertTrue(first.reply().started());
        assertEquals(DEFINITION, first.reply().definitionJson());
        assertEquals(3, first.reply().totalRuns());

        var again = start("{\"name\":\"other\"}", 99);
        assertTrue(again.hasNoEvents(), "a later start only answers");
        assertEquals(DEFINITION, again.reply().definitionJson(), "the first definition stays");
        assertEquals(3, again.reply().totalRuns());
    }

    @Test
    void recordedRunsBuildTheStateInIndexOrder() {
        start(DEFINITION, 3);
        var second = record(2, "{\"run\":2}");
        assertEquals(new CampaignEntity.RunCompleted(2, "{\"run\":2}"), second.event());
        assertEquals(Done.getInstance(), second.reply(), "acknowledged once stored");
        record(0, "{\"run\":0}");
        assertEquals(new TreeMap<>(Map.of(0, "{\"run\":0}", 2, "{\"run\":2}")), state().completed());
        assertEquals(List.of("{\"run\":0}", "{\"run\":2}"), List.copyOf(state().completed().values()),
                "results come out in plan order whatever order the workers finished in");
        assertFalse(state().finished());
    }

    @Test
    void aRunRecordedTwiceKeepsItsFirstResultAndStoresNoSecondEvent() {
        start(DEFINITION, 3);
        record(1, "{\"run\":1,\"first\":true}");
        var twice = record(1, "{\"run\":1,\"first\":false}");
        assertTrue(twice.hasNoEvents(), "the repeat is not journalled");
        assertEquals(Done.getInstance(), twice.reply(), "but acknowledged, so the coordinator counts it done");
        assertEquals(Map.of(1, "{\"run\":1,\"first\":true}"), state().completed());
        assertEquals(1, entity.persistenceTestKit().persistedInStorage("campaign-test-campaign").stream()
                .filter(e -> e instanceof CampaignEntity.RunCompleted).count());
    }

    @Test
    void severalRunsInOneWriteAreTheSameEventsAsOneAtATimeAndSkipStoredOnes() {
        start(DEFINITION, 4);
        record(1, "r1");
        var batch = entity.<Done>runCommand(r -> new CampaignEntity.RecordRuns(new TreeMap<>(Map.of(0, "r0", 1, "r1 again",
                3, "r3")), r));
        assertEquals(List.of(new CampaignEntity.RunCompleted(0, "r0"), new CampaignEntity.RunCompleted(3, "r3")), batch.events(),
                "one RunCompleted per new run, in index order; run 1 was stored before");
        assertEquals(Done.getInstance(), batch.reply(), "acknowledged once stored");
        assertEquals(Map.of(0, "r0", 1, "r1", 3, "r3"), state().completed());
        var again = entity.<Done>runCommand(r -> new CampaignEntity.RecordRuns(Map.of(0, "x", 3, "y"), r));
        assertTrue(again.hasNoEvents(), "a batch of stored runs writes nothing");
        assertEquals(Done.getInstance(), again.reply());
        assertEquals(Map.of(0, "r0", 1, "r1", 3, "r3"), entity.restart().state().completed(), "recovery gives the same runs");
    }

    @Test
    void finishIsStoredOnceAndKeepsTheResults() {
        start(DEFINITION, 2);
        record(0, "a");
        record(1, "b");
        var finish = entity.<Done>runCommand(CampaignEntity.Finish::new);
        assertEquals(new CampaignEntity.CampaignFinished(), finish.event());
        assertEquals(Done.getInstance(), finish.reply());
        assertTrue(finish.state().finished());
        var again = entity.<Done>runCommand(CampaignEntity.Finish::new);
        assertTrue(again.hasNoEvents(), "a second finish (re-running a finished campaign) stores nothing");
        assertEquals(Done.getInstance(), again.reply());
        CampaignEntity.State s = state();
        assertTrue(s.finished());
        assertEquals(DEFINITION, s.definitionJson());
        assertEquals(Map.of(0, "a", 1, "b"), s.completed());
    }

    @Test
    void aRestartRecoversTheStateFromTheEventsAlone() {
        start(DEFINITION, 3);
        record(0, "r0");
        record(2, "r2");
        CampaignEntity.State recovered = entity.restart().state();
        assertTrue(recovered.started());
        assertEquals(DEFINITION, recovered.definitionJson());
        assertEquals(3, recovered.totalRuns());
        assertEquals(Map.of(0, "r0", 2, "r2"), recovered.completed());
        assertFalse(recovered.finished());

        // After recovery the entity goes on where it stopped: the stored run is not stored again.
        assertTrue(record(2, "r2 again").hasNoEvents());
        assertEquals(new CampaignEntity.RunCompleted(1, "r1"), record(1, "r1").event());
        entity.runCommand(CampaignEntity.Finish::new);
        CampaignEntity.State done = entity.restart().state();
        assertEquals(Map.of(0, "r0", 1, "r1", 2, "r2"), done.completed());
        assertTrue(done.finished());
        assertTrue(start(DEFINITION, 3).hasNoEvents(), "resuming a finished campaign starts nothing new");
    }

    @Test
    void recoveryFromAJournalWrittenEarlierGivesTheSameState() {
        entity.initialize(new CampaignEntity.CampaignStarted(DEFINITION, 2), new CampaignEntity.RunCompleted(1, "one"),
                new CampaignEntity.RunCompleted(0, "zero"), new CampaignEntity.CampaignFinished());
        CampaignEntity.State s = state();
        assertEquals(List.of("zero", "one"), List.copyOf(s.completed().values()));
        assertTrue(s.finished());
        assertEquals(2, s.totalRuns());
    }

    @Test
    void repliesAreCopiesThatLaterRunsDoNotChange() {
        start(DEFINITION, 3);
        record(0, "r0");
        CampaignEntity.State before = state();
        record(1, "r1");
        assertEquals(Map.of(0, "r0"), before.completed(), "a state handed out earlier does not see later runs");
        assertNotSame(before.completed(), state().completed());
    }
}
