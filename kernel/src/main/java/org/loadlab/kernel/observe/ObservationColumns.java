package org.loadlab.kernel.observe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A list of {@link Observation}s stored column by column: the wire form of a cluster
 * member's observation batch. Each record is a kind code and a time; its other fields are
 * appended, in the record's component order, to the column of their type, and the names of
 * counters and message kinds are indexes into a table of the distinct names.
 *
 * <p>Why: as a list of records, each observation went over Artery as a CBOR map with its
 * type id and field names, and Jackson's polymorphic, property-based reading of a batch of
 * 2,000 took milliseconds on the receiving remoting thread, with every probe reply that
 * arrived meanwhile waiting behind it (the decision p99 grew with the flush interval:
 * docs/cluster.md, "Throughput and overload"). Primitive arrays are read by Jackson as
 * arrays, with no type ids, names or reflection. A member's {@link ObservationLog} writes
 * them and the gateway's {@link ObservationQueue} reads them, so neither makes an object per
 * record ({@link #of} and {@link #toList} are for tests and the live runner).
 *
 * <p>Columns per kind (besides the time): arrived: ints balancer; decided: ints balancer,
 * queries; routed: ints balancer, node, doubles decision start, arrival time; rejected:
 * doubles arrival time; completed: doubles arrival time, ints node; service started: ints
 * node, doubles wait; lost: ints node, count; queue: ints node, length; busy: ints node,
 * busy, servers; update: ints node, receivers; count: ints name, longs delta; message: ints
 * kind name, bytes.
 *
 * @param kinds one code per record, in order (see {@link #toList()} for the codes' records)
 * @param times each record's time, scenario seconds
 * @param ints the int fields of the records, in record order
 * @param doubles the double fields of the records, in record order (seconds)
 * @param longs the long fields of the records, in record order
 * @param names the distinct counter and message-kind names the int columns point into
 */
public record ObservationColumns(byte[] kinds, double[] times, int[] ints, double[] doubles, long[] longs, List<String> names) {
    // The kind codes are the wire format (ObservationLog and ObservationQueue use them too): never renumber them.
    static final byte ARRIVED = 0;
    static final byte DECIDED = 1;
    static final byte ROUTED = 2;
    static final byte REJECTED = 3;
    static final byte COMPLETED = 4;
    static final byte STARTED = 5;
    static final byte LOST = 6;
    static final byte QUEUE = 7;
    static final byte BUSY = 8;
    static final byte UPDATE = 9;
    static final byte COUNTED = 10;
    static final byte MESSAGE = 11;
    // Per kind code: how many ints, doubles and longs a record of that kind has.
    static final int[] INTS = {1, 2, 2, 0, 1, 1, 2, 2, 3, 2, 1, 2};
    static final int[] DOUBLES = {0, 0, 2, 1, 1, 1, 0, 0, 0, 0, 0, 0};
    static final int[] LONGS = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0};

    /** An empty list. */
    public static final ObservationColumns EMPTY = new ObservationColumns(new byte[0], new double[0], new int[0], new double[0],
            new long[0], List.of());

    /**
     * Checks that the columns hold exactly what the kinds need (a batch cut short or padded
     * would shift every later record's fields).
     *
     * @throws IllegalArgumentException naming the column, its length and the length the kinds need, an unknown kind code,
     *     or a name index outside {@code names}
     * @throws NullPointerException if a column is {@code null}
     */
    public ObservationColumns {
        Objects.requireNonNull(kinds, "kinds");
        Objects.requireNonNull(times, "times");
        Objects.requireNonNull(ints, "ints");
        Objects.requireNonNull(doubles, "doubles");
        Objects.requireNonNull(longs, "longs");
        names = List.copyOf(names);
        int needInts = 0;
        int needDoubles = 0;
        int needLongs = 0;
        for (byte k : kinds) {
            if (k < 0 || k >= INTS.length) {
                throw new IllegalArgumentException("observation kind code " + k + " is unknown; allowed: 0.." + (INTS.length - 1));
            }
            needInts += INTS[k];
            needDoubles += DOUBLES[k];
            needLongs += LONGS[k];
        }
        requireLength("times", times.length, kinds.length);
        requireLength("ints", ints.length, needInts);
        requireLength("doubles", doubles.length, needDoubles);
        requireLength("longs", longs.length, needLongs);
        int in = 0;
        for (byte k : kinds) {
            if ((k == COUNTED || k == MESSAGE) && (ints[in] < 0 || ints[in] >= names.size())) { // a name is a record's first int
                throw new IllegalArgumentException("observation name index " + ints[in] + " is outside the batch's "
                        + names.size() + " names");
            }
            in += INTS[k];
        }
    }

    private static void requireLength(String column, int length, int needed) {
        if (length != needed) {
            throw new IllegalArgumentException("observation column " + column + " holds " + length
                    + " values; the records' kinds need " + needed);
        }
    }

    /**
     * Stores {@code records} in columns.
     *
     * @param records the observations, in the order {@link #toList()} gives them back
     * @return their columns
     * @throws NullPointerException if the list or a record is {@code null}
     */
    public static ObservationColumns of(List<? extends Observation> records) {
        ObservationLog log = new ObservationLog(); // the one writer of the columns
        for (Observation o : records) {
            o.applyTo(log);
        }
        return log.drain(Integer.MAX_VALUE);
    }

    /** The index of {@code name} in {@code names}, appended (and indexed) if it is new. */
    static int indexOf(String name, List<String> names, Map<String, Integer> index) {
        Integer i = index.get(name);
        if (i == null) {
            i = names.size();
            names.add(name);
            index.put(name, i);
        }
        return i;
    }

    /** Number of records. */
    public int size() {
        return kinds.length;
    }

    /**
     * The records again, in their order.
     *
     * @return a new mutable list
     */
    public List<Observation> toList() {
        List<Observation> out = new ArrayList<>(kinds.length);
        int in = 0;
        int d = 0;
        int l = 0;
        for (int r = 0; r < kinds.length; r++) {
            double t = times[r];
            out.add(switch (kinds[r]) {
                case ARRIVED -> new Observation.Arrived(t, ints[in++]);
                case DECIDED -> new Observation.Decided(t, ints[in++], ints[in++]);
                case ROUTED -> new Observation.Routed(t, ints[in++], ints[in++], doubles[d++], doubles[d++]);
                case REJECTED -> new Observation.Rejected(t, doubles[d++]);
                case COMPLETED -> new Observation.Completed(t, doubles[d++], ints[in++]);
                case STARTED -> new Observation.ServiceStarted(t, ints[in++], doubles[d++]);
                case LOST -> new Observation.Lost(t, ints[in++], ints[in++]);
                case QUEUE -> new Observation.QueueLength(t, ints[in++], ints[in++]);
                case BUSY -> new Observation.BusyServers(t, ints[in++], ints[in++], ints[in++]);
                case UPDATE -> new Observation.StateUpdate(t, ints[in++], ints[in++]);
                case COUNTED -> new Observation.Counted(t, name(ints[in++]), longs[l++]);
                default -> new Observation.MessageSent(t, name(ints[in++]), ints[in++]); // MESSAGE: codes are checked
            });
        }
        return out;
    }

    private String name(int index) {
        return names.get(index); // checked by the constructor
    }

    /** Equal when every column holds the same values (a record's own equals compares arrays by identity). */
    @Override
    public boolean equals(Object o) {
        return o instanceof ObservationColumns c && Arrays.equals(kinds, c.kinds) && Arrays.equals(times, c.times)
                && Arrays.equals(ints, c.ints) && Arrays.equals(doubles, c.doubles) && Arrays.equals(longs, c.longs)
                && names.equals(c.names);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(kinds), Arrays.hashCode(times), Arrays.hashCode(ints), Arrays.hashCode(doubles),
                Arrays.hashCode(longs), names);
    }

    /** Its size and names (the columns themselves are long). */
    @Override
    public String toString() {
        return "ObservationColumns[" + kinds.length + " records, names " + names + "]";
    }
}
