package org.loadlab.experiment.ope;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.loadlab.balancer.core.DecisionLog;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.ResponseStatus;

/**
 * A balancer's decision log for off-policy evaluation, as a CSV file with one line per
 * request once it has ended: {@code request,arrival_s,decided_s,ended_s,node,propensity,mode,
 * status,pool}, where {@code pool} lists every node the policy could choose as
 * {@code node:in_flight:queue:cpu} joined by {@code ;} (queue and CPU from the newest load the
 * balancer had, −1 and NaN when it had none). Requests the balancer shed are not decisions and
 * are not logged; a request is written when it ends, so the file's order is the order of ends.
 *
 * <p>Source: the (context, action, propensity, reward) tuples of contextual-bandit evaluation
 * (Li et al., "Unbiased offline evaluation of contextual-bandit-based news article
 * recommendation algorithms", WSDM 2011).
 */
public final class DecisionLogFile implements DecisionLog, AutoCloseable {
    /** The CSV header. */
    public static final String HEADER = "request,arrival_s,decided_s,ended_s,node,propensity,mode,status,pool";

    private final BufferedWriter out;
    private final com.carrotsearch.hppc.LongObjectHashMap<String> open = new com.carrotsearch.hppc.LongObjectHashMap<>();
    // The node each open request was routed to, to end them when their node is removed.
    private final com.carrotsearch.hppc.LongIntHashMap openNode = new com.carrotsearch.hppc.LongIntHashMap();

    /**
     * @param file the log file (replaced)
     * @throws UncheckedIOException if it cannot be created
     */
    public DecisionLogFile(Path file) {
        try {
            if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
            this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
            out.write(HEADER);
            out.newLine();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the decision log " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void routed(BalancerMessage.Arrival request, double decidedFrom, double now, int node, double propensity,
                       String mode, int[] pool, int poolSize, int[] inFlight, LoadSnapshot[] loads) {
        StringBuilder sb = new StringBuilder(64 + 24 * poolSize);
        sb.append(request.id()).append(',').append(num(request.arrivalTime())).append(',').append(num(now)).append(",%s,")
                .append(node).append(',').append(num(propensity)).append(',')
                .append(mode.startsWith("routing_mode:") ? mode.substring("routing_mode:".length()) : mode).append(",%s,");
        for (int k = 0; k < poolSize; k++) {
            int j = pool[k];
            LoadSnapshot s = loads == null ? null : loads[j];
            if (k > 0) {
                sb.append(';');
            }
            sb.append(j).append(':').append(inFlight[j]).append(':').append(s == null ? -1 : s.queueLength()).append(':')
                    .append(s == null ? "NaN" : num(s.cpu()));
        }
        open.put(request.id(), sb.toString());
        openNode.put(request.id(), node);
    }

    /**
     * Ends every open request routed to {@code node} as lost (status 503, {@link ResponseStatus#RESET}),
     * in request order, so a run's log has a row for each routed request whatever happened to it.
     *
     * @param node the removed node
     * @param now when it was removed, seconds
     */
    @Override
    public void nodeRemoved(int node, double now) {
        com.carrotsearch.hppc.LongArrayList ids = new com.carrotsearch.hppc.LongArrayList();
        for (com.carrotsearch.hppc.cursors.LongIntCursor e : openNode) {
            if (e.value == node) {
                ids.add(e.key);
            }
        }
        long[] sorted = ids.toArray();
        java.util.Arrays.sort(sorted);
        for (long id : sorted) {
            finished(id, ResponseStatus.RESET, now);
        }
    }

    @Override
    public void finished(long requestId, ResponseStatus status, double now) {
        String line = open.remove(requestId);
        openNode.remove(requestId);
        if (line == null) {
            return;
        }
        int first = line.indexOf("%s");
        String filled = line.substring(0, first) + num(now) + line.substring(first + 2);
        int second = filled.indexOf("%s");
        filled = filled.substring(0, second) + status.code() + filled.substring(second + 2);
        try {
            out.write(filled);
            out.newLine();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the decision log: " + e.getMessage(), e);
        }
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "NaN" : String.format(Locale.ROOT, "%.9g", v);
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the decision log: " + e.getMessage(), e);
        }
    }

    /**
     * One logged decision.
     *
     * @param request the request id
     * @param arrival when it arrived, s
     * @param decided when it was routed, s
     * @param ended when it ended, s
     * @param node the chosen node
     * @param propensity the logging policy's probability of that node
     * @param mode the routing mode
     * @param status the final HTTP status
     * @param pool the nodes it could choose, with their in-flight counts, queues and CPU
     */
    public record Entry(long request, double arrival, double decided, double ended, int node, double propensity, String mode,
                        int status, List<PoolNode> pool) {
        /** Response time, s. */
        public double latency() {
            return ended - arrival;
        }
    }

    /** A node the policy could choose: its index, requests in flight, queue (−1 unknown), CPU (NaN unknown). */
    public record PoolNode(int node, int inFlight, int queue, double cpu) {
    }

    /**
     * Reads a log.
     *
     * @throws IllegalArgumentException naming the line and field of a malformed line
     * @throws UncheckedIOException if the file cannot be read
     */
    public static List<Entry> read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalArgumentException(file + " is not a decision log: it is not UTF-8 text (" + e.getMessage()
                    + "); its first line must be '" + HEADER + "'", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the decision log " + file + ": " + e.getMessage(), e);
        }
        if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
            throw new IllegalArgumentException(file + " is not a decision log: its first line must be '" + HEADER + "'");
        }
        List<Entry> out = new ArrayList<>(lines.size());
        for (int i = 1; i < lines.size(); i++) {
            String[] f = lines.get(i).split(",", -1);
            if (f.length != 9) {
                throw new IllegalArgumentException(file + " line " + (i + 1) + ": " + f.length + " fields, expected 9 (" + HEADER + ")");
            }
            String pool = f[8];
            List<PoolNode> nodes = new ArrayList<>();
            for (String p : pool.isEmpty() ? new String[0] : pool.split(";")) {
                String[] q = p.split(":", -1);
                try {
                    if (q.length != 4) {
                        throw new NumberFormatException();
                    }
                    nodes.add(new PoolNode(Integer.parseInt(q[0]), Integer.parseInt(q[1]), Integer.parseInt(q[2]),
                            Double.parseDouble(q[3])));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(file + " line " + (i + 1) + ": pool = '" + pool
                            + "': allowed node:in_flight:queue:cpu entries joined by ';' (e.g. 0:2:1:0.5;3:0:-1:NaN)", e);
                }
            }
            String where = file + " line " + (i + 1);
            out.add(new Entry(whole(where, "request", f[0]), number(where, "arrival_s", f[1]), number(where, "decided_s", f[2]),
                    number(where, "ended_s", f[3]), (int) whole(where, "node", f[4]), number(where, "propensity", f[5]), f[6],
                    (int) whole(where, "status", f[7]), nodes));
        }
        return out;
    }

    private static double number(String where, String column, String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + ": " + column + " = '" + value + "': allowed a number", e);
        }
    }

    private static long whole(String where, String column, String value) {
        try {
            long v = Long.parseLong(value);
            if (!column.equals("request") && (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE)) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + ": " + column + " = '" + value + "': allowed a whole number", e);
        }
    }
}
