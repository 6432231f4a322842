package org.loadlab.app.cli;

import java.util.List;
import org.loadlab.analysis.io.CsvNumbers;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.experiment.run.NodeInspection;
import org.loadlab.experiment.run.SimulationRunner;

/**
 * {@code nodes.csv}: per run and node, the node's state when the arrivals ended — μ_j, q_j,
 * CPU/MEM/IO/NET, the ASMF feedback correction C_j and (for ASMF policies) the score S'_j —
 * next to its utilisation and share of the requests over the run. Deterministic text.
 */
final class NodesCsv {
    static final String HEADER = "scenario,policy,seed,node,service_rate,queue_length,cpu,mem,io,net,correction,asmf_score,"
            + "utilisation,request_share\n";

    private NodesCsv() {
    }

    static String render(List<SimulationRunner.Outcome> outcomes) {
        StringBuilder b = new StringBuilder(HEADER);
        for (SimulationRunner.Outcome o : outcomes) {
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
        return b.toString();
    }
}
