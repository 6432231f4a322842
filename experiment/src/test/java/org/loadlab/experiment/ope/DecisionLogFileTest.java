package org.loadlab.experiment.ope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.ResponseStatus;

/** The decision-log file has a row for every routed request, lost ones included. */
class DecisionLogFileTest {

    @Test
    void aRemovedNodesOpenRequestsGetRowsWithStatus503(@TempDir Path dir) {
        Path file = dir.resolve("decisions.csv");
        int[] pool = {0, 1, 2};
        int[] inFlight = new int[3];
        try (DecisionLogFile log = new DecisionLogFile(file)) {
            int[] to = {2, 0, 2, 1};
            for (int id = 0; id < to.length; id++) {
                log.routed(new BalancerMessage.Arrival(id, 1.0, id), id, id, to[id], Double.NaN, "routing_mode:round_robin",
                        pool, 3, inFlight, null);
            }
            log.finished(1, ResponseStatus.OK, 4.0);
            log.nodeRemoved(2, 5.0); // requests 0 and 2 were in flight there
            log.finished(3, ResponseStatus.OK, 6.0);
            log.nodeRemoved(2, 7.0); // nothing open there any more
        }
        List<DecisionLogFile.Entry> rows = DecisionLogFile.read(file);
        assertEquals(List.of(1L, 0L, 2L, 3L), rows.stream().map(DecisionLogFile.Entry::request).toList(),
                "one row per routed request, in the order they ended (the lost ones in request order)");
        assertEquals(List.of(200, 503, 503, 200), rows.stream().map(DecisionLogFile.Entry::status).toList());
        assertEquals(5.0, rows.get(1).ended(), 0.0);
        assertEquals(5.0, rows.get(2).ended(), 0.0);
        assertEquals(2, rows.get(1).node());
    }

    @Test
    void aFileThatIsNotUtf8TextIsRefusedAsNotADecisionLog(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("decisions.csv");
        Files.write(file, new byte[] {0, 1, 2, (byte) 0xff, (byte) 0xfe});
        // it was an UncheckedIOException "Input length = 1", naming neither the file nor what is wrong
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DecisionLogFile.read(file));
        assertTrue(e.getMessage().startsWith(file + " is not a decision log: it is not UTF-8 text"), e.getMessage());
    }

    @Test
    void aMalformedValueIsNamedWithItsColumnAndWhatIsAllowed(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("decisions.csv");
        String ok = "1,0.1,0.1,0.2,0,0.5,lin_ts,200,0:0:-1:NaN;1:2:3:0.5";
        Files.writeString(file, DecisionLogFile.HEADER + "\n" + ok + "\n" + "2,0.1,0.1,0.2,0,abc,lin_ts,200,0:0:-1:NaN\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DecisionLogFile.read(file));
        assertEquals(file + " line 3: propensity = 'abc': allowed a number", e.getMessage());
        Files.writeString(file, DecisionLogFile.HEADER + "\n" + ok + "\n" + "2,0.1,0.1,0.2,0,0.5,lin_ts,200,0:0:zzz\n");
        e = assertThrows(IllegalArgumentException.class, () -> DecisionLogFile.read(file));
        assertEquals(file + " line 3: pool = '0:0:zzz': allowed node:in_flight:queue:cpu entries joined by ';'"
                + " (e.g. 0:2:1:0.5;3:0:-1:NaN)", e.getMessage());
        assertEquals(2, DecisionLogFile.read(writeLines(file, ok, ok)).size());
    }

    private static Path writeLines(Path file, String... rows) throws Exception {
        Files.writeString(file, DecisionLogFile.HEADER + "\n" + String.join("\n", rows) + "\n");
        return file;
    }
}
