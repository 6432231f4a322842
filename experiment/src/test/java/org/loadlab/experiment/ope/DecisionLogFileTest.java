package org.loadlab.experiment.ope;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
