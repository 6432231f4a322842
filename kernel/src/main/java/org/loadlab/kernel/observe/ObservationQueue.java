package org.loadlab.kernel.observe;

import static org.loadlab.kernel.observe.ObservationColumns.ARRIVED;
import static org.loadlab.kernel.observe.ObservationColumns.BUSY;
import static org.loadlab.kernel.observe.ObservationColumns.COMPLETED;
import static org.loadlab.kernel.observe.ObservationColumns.COUNTED;
import static org.loadlab.kernel.observe.ObservationColumns.DECIDED;
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
 * The observation records of one source not yet fed, sorted by time, each a row of
 * fixed-width primitive columns: the queue a merger keeps per cluster member. Records of
 * equal time keep the order they were added in.
 *
 * <p>Why not a list of {@link Observation}s: a gateway holds every record of the last 100–200
 * ms (it waits for the slowest member), about 100,000 at 35,000 requests/s, and as objects
 * they were most of what each of its young collections copied (docs/cluster.md, "The decision
 * p99 at half the saturation rate"). Rows of arrays are a few large objects instead.
 *
 * <p>A row: the kind code and time, up to three ints (a, b, c) and two doubles (x, y); a
 * counter's long delta is its high and low halves in b and c, and a name (counter, message
 * kind) is an index into this queue's own table. Not thread-safe.
 */
public final class ObservationQueue {
    private static final int START = 1024;
    private byte[] kinds = new byte[START];
    private double[] times = new double[START];
    private int[] a = new int[START];
    private int[] b = new int[START];
    private int[] c = new int[START];
    private double[] x = new double[START];
    private double[] y = new double[START];
    private int head;
    private int size;
    private final List<String> names = new ArrayList<>();
    private final Map<String, Integer> nameIndex = new HashMap<>();

    /**
     * Adds the records of {@code batch} in time order among those queued. A batch that is
     * nearly in order and overlaps only the last few queued records (what a member's log
     * sends) costs about one pass; any other is sorted in full.
     *
     * @param batch records of this source, in any order
     */
    public void add(ObservationColumns batch) {
        int n = batch.size();
        if (n == 0) {
            return;
        }
        compactOrGrow(n);
        int[] names = new int[batch.names().size()];
        Arrays.fill(names, -1);
        byte[] k = batch.kinds();
        double[] t = batch.times();
        int[] ints = batch.ints();
        double[] doubles = batch.doubles();
        long[] longs = batch.longs();
        int in = 0;
        int d = 0;
        int l = 0;
        long shifts = 0;
        boolean sortInFull = false;
        for (int r = 0; r < n; r++) {
            int row = size++;
            kinds[row] = k[r];
            times[row] = t[r];
            switch (k[r]) {
                case ARRIVED -> a[row] = ints[in++];
                case STARTED -> {
                    a[row] = ints[in++];
                    x[row] = doubles[d++];
                }
                case DECIDED, LOST, QUEUE, UPDATE -> {
                    a[row] = ints[in++];
                    b[row] = ints[in++];
                }
                case ROUTED -> {
                    a[row] = ints[in++];
                    b[row] = ints[in++];
                    x[row] = doubles[d++];
                    y[row] = doubles[d++];
                }
                case REJECTED -> x[row] = doubles[d++];
                case COMPLETED -> {
                    x[row] = doubles[d++];
                    a[row] = ints[in++];
                }
                case BUSY -> {
                    a[row] = ints[in++];
                    b[row] = ints[in++];
                    c[row] = ints[in++];
                }
                case COUNTED -> {
                    a[row] = localName(batch, names, ints[in++]);
                    long delta = longs[l++];
                    b[row] = (int) (delta >>> 32);
                    c[row] = (int) delta;
                }
                default -> { // MESSAGE (the columns' constructor checked every code)
                    a[row] = localName(batch, names, ints[in++]);
                    b[row] = ints[in++];
                }
            }
            if (!sortInFull) {
                shifts += sinkIntoPlace(row);
                sortInFull = shifts > 32L * n + 4096; // far out of order: cheaper to sort once
            }
        }
        if (sortInFull) {
            sortAll();
        }
    }

    /** Moves row {@code row} down past the queued rows later than it (stable); returns how many it passed. */
    private int sinkIntoPlace(int row) {
        double t = times[row];
        int to = row;
        while (to > head && times[to - 1] > t) {
            to--;
        }
        if (to < row) {
            byte k = kinds[row];
            int ra = a[row];
            int rb = b[row];
            int rc = c[row];
            double rx = x[row];
            double ry = y[row];
            int len = row - to;
            System.arraycopy(kinds, to, kinds, to + 1, len);
            System.arraycopy(times, to, times, to + 1, len);
            System.arraycopy(a, to, a, to + 1, len);
            System.arraycopy(b, to, b, to + 1, len);
            System.arraycopy(c, to, c, to + 1, len);
            System.arraycopy(x, to, x, to + 1, len);
            System.arraycopy(y, to, y, to + 1, len);
            kinds[to] = k;
            times[to] = t;
            a[to] = ra;
            b[to] = rb;
            c[to] = rc;
            x[to] = rx;
            y[to] = ry;
        }
        return row - to;
    }

    /** Sorts every queued row by time, stably (the rare batch far out of order). */
    private void sortAll() {
        Integer[] order = new Integer[size - head];
        for (int i = 0; i < order.length; i++) {
            order[i] = head + i;
        }
        Arrays.sort(order, (p, q) -> Double.compare(times[p], times[q])); // a merge sort: stable
        byte[] k2 = new byte[kinds.length];
        double[] t2 = new double[kinds.length];
        int[] a2 = new int[kinds.length];
        int[] b2 = new int[kinds.length];
        int[] c2 = new int[kinds.length];
        double[] x2 = new double[kinds.length];
        double[] y2 = new double[kinds.length];
        for (int i = 0; i < order.length; i++) {
            int from = order[i];
            k2[i] = kinds[from];
            t2[i] = times[from];
            a2[i] = a[from];
            b2[i] = b[from];
            c2[i] = c[from];
            x2[i] = x[from];
            y2[i] = y[from];
        }
        kinds = k2;
        times = t2;
        a = a2;
        b = b2;
        c = c2;
        x = x2;
        y = y2;
        size -= head;
        head = 0;
    }

    /** This queue's index of the batch's name {@code index} (memoised per batch in {@code local}). */
    private int localName(ObservationColumns batch, int[] local, int index) {
        if (local[index] < 0) {
            local[index] = ObservationColumns.indexOf(batch.names().get(index), names, nameIndex);
        }
        return local[index];
    }

    /** Makes room for {@code n} more rows: moves the queued rows to the front, or doubles the columns. */
    private void compactOrGrow(int n) {
        if (size + n <= kinds.length) {
            return;
        }
        int queued = size - head;
        int capacity = kinds.length;
        while (queued + n > capacity) {
            capacity *= 2;
        }
        if (capacity == kinds.length && head == 0) {
            return;
        }
        kinds = move(kinds, capacity);
        times = move(times, capacity);
        a = move(a, capacity);
        b = move(b, capacity);
        c = move(c, capacity);
        x = move(x, capacity);
        y = move(y, capacity);
        size = queued;
        head = 0;
    }

    private byte[] move(byte[] column, int capacity) {
        byte[] to = capacity == column.length ? column : new byte[capacity];
        System.arraycopy(column, head, to, 0, size - head);
        return to;
    }

    private double[] move(double[] column, int capacity) {
        double[] to = capacity == column.length ? column : new double[capacity];
        System.arraycopy(column, head, to, 0, size - head);
        return to;
    }

    private int[] move(int[] column, int capacity) {
        int[] to = capacity == column.length ? column : new int[capacity];
        System.arraycopy(column, head, to, 0, size - head);
        return to;
    }

    /** True when no record is queued. */
    public boolean isEmpty() {
        return head == size;
    }

    /** Records queued. */
    public int size() {
        return size - head;
    }

    /**
     * Time of the earliest queued record, scenario seconds.
     *
     * @throws IllegalStateException if the queue is empty
     */
    public double headTime() {
        requireHead();
        return times[head];
    }

    /** True when the earliest record is a routing ({@link Observation.Routed}). */
    public boolean headIsRouted() {
        requireHead();
        return kinds[head] == ROUTED;
    }

    /** True when the earliest record resolves a request ({@link Observation.Completed} or {@link Observation.Rejected}). */
    public boolean headResolvesRequest() {
        requireHead();
        return kinds[head] == COMPLETED || kinds[head] == REJECTED;
    }

    /**
     * When the request of the earliest record arrived, scenario seconds: for a routing, a
     * completion or a rejection; NaN for any other record.
     */
    public double headArrivalTime() {
        requireHead();
        return switch (kinds[head]) {
            case ROUTED -> y[head];
            case COMPLETED, REJECTED -> x[head];
            default -> Double.NaN;
        };
    }

    /** When the balancer started the earliest record's decision, scenario seconds, if it is a routing; NaN otherwise. */
    public double headDecisionStart() {
        requireHead();
        return kinds[head] == ROUTED ? x[head] : Double.NaN;
    }

    /**
     * Removes the earliest record and makes the {@link MetricsSink} call it stands for at
     * time {@code at} (its own time, or later when a merger keeps time order). The record
     * is removed even if the sink throws.
     *
     * @param sink where the call goes
     * @param at time of the call, scenario seconds
     * @throws IllegalStateException if the queue is empty
     */
    public void pollInto(MetricsSink sink, double at) {
        requireHead();
        int r = head++;
        if (head == size) {
            head = 0;
            size = 0;
        }
        switch (kinds[r]) {
            case ARRIVED -> sink.arrived(at, a[r]);
            case DECIDED -> sink.decision(at, a[r], b[r]);
            case ROUTED -> sink.routed(at, a[r], b[r], x[r], y[r]);
            case REJECTED -> sink.rejected(at, x[r]);
            case COMPLETED -> sink.completed(at, x[r], a[r]);
            case STARTED -> sink.serviceStarted(at, a[r], x[r]);
            case LOST -> sink.lost(at, a[r], b[r]);
            case QUEUE -> sink.queueLength(at, a[r], b[r]);
            case BUSY -> sink.busyServers(at, a[r], b[r], c[r]);
            case UPDATE -> sink.stateUpdate(at, a[r], b[r]);
            case COUNTED -> sink.count(at, names.get(a[r]), (long) b[r] << 32 | c[r] & 0xFFFF_FFFFL);
            default -> sink.messageSent(at, names.get(a[r]), b[r]); // MESSAGE
        }
    }

    private void requireHead() {
        if (head == size) {
            throw new IllegalStateException("no observation is queued");
        }
    }
}
