package org.loadlab.kernel.observe;

import static org.loadlab.kernel.observe.ObservationColumns.ARRIVED;
import static org.loadlab.kernel.observe.ObservationColumns.BUSY;
import static org.loadlab.kernel.observe.ObservationColumns.COMPLETED;
import static org.loadlab.kernel.observe.ObservationColumns.COUNTED;
import static org.loadlab.kernel.observe.ObservationColumns.DECIDED;
import static org.loadlab.kernel.observe.ObservationColumns.DOUBLES;
import static org.loadlab.kernel.observe.ObservationColumns.INTS;
import static org.loadlab.kernel.observe.ObservationColumns.LONGS;
import static org.loadlab.kernel.observe.ObservationColumns.LOST;
import static org.loadlab.kernel.observe.ObservationColumns.MESSAGE;
import static org.loadlab.kernel.observe.ObservationColumns.QUEUE;
import static org.loadlab.kernel.observe.ObservationColumns.REJECTED;
import static org.loadlab.kernel.observe.ObservationColumns.ROUTED;
import static org.loadlab.kernel.observe.ObservationColumns.STARTED;
import static org.loadlab.kernel.observe.ObservationColumns.UPDATE;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.loadlab.kernel.MetricsSink;

/**
 * A sink that records every observation, for a shell that ships them elsewhere (a cluster
 * member to its gateway). Thread-safe: the actors of one member share it. Taken out in
 * chunks of a bounded size ({@link #drain(int)}), so no message outgrows the transport's
 * frame.
 *
 * <p>It writes each call straight into {@link ObservationColumns}' columns (primitive arrays
 * it reuses between drains), not as an {@link Observation} object: at 34,000 requests/s the
 * members make about 15 records a request, and as objects they lived until the gateway had
 * merged them (100–200 ms), so every young collection of the gateway copied them (6–7 MB of
 * survivors; docs/cluster.md, "The decision p99 at half the saturation rate").
 */
public final class ObservationLog implements MetricsSink {
    private byte[] kinds = new byte[1024];
    private double[] times = new double[1024];
    private int[] ints = new int[2048];
    private double[] doubles = new double[512];
    private long[] longs = new long[64];
    private int size;
    private int intCount;
    private int doubleCount;
    private int longCount;
    private final List<String> names = new ArrayList<>();
    private final Map<String, Integer> nameIndex = new HashMap<>();
    private List<String> namesSnapshot = List.of();
    private boolean closed;
    private long recorded;
    private long droppedAfterClose;

    /**
     * Takes up to {@code max} records, oldest first.
     *
     * @param max largest chunk, ≥ 1
     * @return the records as columns ({@link ObservationColumns#size()} 0 if none)
     * @throws IllegalArgumentException if {@code max} < 1
     */
    public synchronized ObservationColumns drain(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be >= 1, got " + max);
        }
        if (size == 0) {
            return ObservationColumns.EMPTY;
        }
        int n = Math.min(max, size);
        int ni = 0;
        int nd = 0;
        int nl = 0;
        if (n == size) {
            ni = intCount;
            nd = doubleCount;
            nl = longCount;
        } else {
            for (int r = 0; r < n; r++) {
                ni += INTS[kinds[r]];
                nd += DOUBLES[kinds[r]];
                nl += LONGS[kinds[r]];
            }
        }
        if (namesSnapshot.size() != names.size()) {
            namesSnapshot = List.copyOf(names);
        }
        ObservationColumns out = new ObservationColumns(Arrays.copyOf(kinds, n), Arrays.copyOf(times, n),
                Arrays.copyOf(ints, ni), Arrays.copyOf(doubles, nd), Arrays.copyOf(longs, nl), namesSnapshot);
        // The rest moves to the front (empty after a full drain: nothing to move).
        System.arraycopy(kinds, n, kinds, 0, size - n);
        System.arraycopy(times, n, times, 0, size - n);
        System.arraycopy(ints, ni, ints, 0, intCount - ni);
        System.arraycopy(doubles, nd, doubles, 0, doubleCount - nd);
        System.arraycopy(longs, nl, longs, 0, longCount - nl);
        size -= n;
        intCount -= ni;
        doubleCount -= nd;
        longCount -= nl;
        return out;
    }

    /** Records waiting to be drained. */
    public synchronized int size() {
        return size;
    }

    /** Records made since the start. */
    public synchronized long recorded() {
        return recorded;
    }

    /** Observations refused because they came after {@link #close()}. */
    public synchronized long droppedAfterClose() {
        return droppedAfterClose;
    }

    /** Refuses every later observation (the actors are stopping); they are counted. */
    public synchronized void close() {
        closed = true;
    }

    /** Starts a record of kind {@code kind} at {@code time}; false (and counted) once the log is closed. */
    private boolean begin(byte kind, double time) {
        if (closed) {
            droppedAfterClose++;
            return false;
        }
        if (size == kinds.length) {
            kinds = Arrays.copyOf(kinds, 2 * size);
            times = Arrays.copyOf(times, 2 * size);
        }
        kinds[size] = kind;
        times[size++] = time;
        recorded++;
        return true;
    }

    private void putInt(int v) {
        if (intCount == ints.length) {
            ints = Arrays.copyOf(ints, 2 * intCount);
        }
        ints[intCount++] = v;
    }

    private void putDouble(double v) {
        if (doubleCount == doubles.length) {
            doubles = Arrays.copyOf(doubles, 2 * doubleCount);
        }
        doubles[doubleCount++] = v;
    }

    private void putLong(long v) {
        if (longCount == longs.length) {
            longs = Arrays.copyOf(longs, 2 * longCount);
        }
        longs[longCount++] = v;
    }

    private int nameIndex(String name) {
        return ObservationColumns.indexOf(name, names, nameIndex);
    }

    // Each call writes its fields in the order ObservationColumns documents for its kind.

    @Override
    public synchronized void arrived(double now, int balancer) {
        if (begin(ARRIVED, now)) {
            putInt(balancer);
        }
    }

    @Override
    public synchronized void decision(double now, int balancer, int queries) {
        if (begin(DECIDED, now)) {
            putInt(balancer);
            putInt(queries);
        }
    }

    @Override
    public synchronized void routed(double now, int balancer, int node, double decisionStart, double arrivalTime) {
        if (begin(ROUTED, now)) {
            putInt(balancer);
            putInt(node);
            putDouble(decisionStart);
            putDouble(arrivalTime);
        }
    }

    @Override
    public synchronized void rejected(double now, double arrivalTime) {
        if (begin(REJECTED, now)) {
            putDouble(arrivalTime);
        }
    }

    @Override
    public synchronized void completed(double now, double arrivalTime, int node) {
        if (begin(COMPLETED, now)) {
            putDouble(arrivalTime);
            putInt(node);
        }
    }

    @Override
    public synchronized void serviceStarted(double now, int node, double waitSeconds) {
        if (begin(STARTED, now)) {
            putInt(node);
            putDouble(waitSeconds);
        }
    }

    @Override
    public synchronized void lost(double now, int node, int count) {
        if (begin(LOST, now)) {
            putInt(node);
            putInt(count);
        }
    }

    @Override
    public synchronized void queueLength(double now, int node, int queueLength) {
        if (begin(QUEUE, now)) {
            putInt(node);
            putInt(queueLength);
        }
    }

    @Override
    public synchronized void busyServers(double now, int node, int busy, int servers) {
        if (begin(BUSY, now)) {
            putInt(node);
            putInt(busy);
            putInt(servers);
        }
    }

    @Override
    public synchronized void stateUpdate(double now, int node, int receivers) {
        if (begin(UPDATE, now)) {
            putInt(node);
            putInt(receivers);
        }
    }

    @Override
    public synchronized void count(double now, String name, long delta) {
        if (begin(COUNTED, now)) {
            putInt(nameIndex(name));
            putLong(delta);
        }
    }

    @Override
    public synchronized void messageSent(double now, String kind, int bytes) {
        if (begin(MESSAGE, now)) {
            putInt(nameIndex(kind));
            putInt(bytes);
        }
    }
}
