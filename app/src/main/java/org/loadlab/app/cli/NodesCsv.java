package org.loadlab.app.cli;

import java.io.IOException;
import java.io.Writer;
import org.loadlab.analysis.io.CsvNumbers;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.experiment.run.NodeInspection;
import org.loadlab.experiment.run.SimulationRunner;

/**
 * {@code nodes.csv}: per run and node, the node's state when the arrivals ended — μ_j, q_j,
 * CPU/MEM/IO/NET, the ASMF feedback correction C_j and (for ASMF policies) the score S'_j —
 * next to its utilisation and share of the requests over the run (in the balls-into-bins
 * model: the final loads; in load sharing and the reference model NaN where the model has no
 * such value, docs/results.md). Deterministic text, written run by run.
 */
final class NodesCsv {
    static final String HEADER = "scenario,policy,seed,node,service_rate,queue_length,cpu,mem,io,net,correction,asmf_score,"
            + "utilisation,request_share\n";

    private NodesCsv() {
    }

    /**
     * Writes the rows of one run.
     *
     * @param out the open file (after its header)
     * @param o the run
     * @throws IOException if the file cannot be written
     */
    static void append(Writer out, SimulationRunner.Outcome o) throws IOException {
        StringBuilder b = new StringBuilder();
        rows(b, o);
        out.append(b);
    }

    private static void rows(StringBuilder b, SimulationRunner.Outcome o) {
        var r = o.result();
        for (NodeInspection n : o.nodes()) {
            LoadSnapshot s = n.load();
            b.append(String.join(",", r.scenario(), r.policy(), String.valueOf(r.seed()), String.valueOf(n.node()),
                    CsvNumbers.format(s.serviceRate()), String.valueOf(s.queueLength()), CsvNumbers.format(s.cpu()),
                    CsvNumbers.format(s.mem()), CsvNumbers.format(s.io()), CsvNumbers.format(s.net()),
                    CsvNumbers.format(s.correction()), CsvNumbers.format(n.score()),
                    CsvNumbers.format(r.metrics().nodeUtilisation().get(n.node())),
                    CsvNumbers.format(r.metrics().nodeRequestShare().get(n.node())))).append('\n');
        }
    }
}
