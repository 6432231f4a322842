package org.loadlab.kernel.sim;

import java.util.Arrays;

/**
 * The simulation's future-event list, ordered by (time, sequence number): equal times pop
 * in insertion order, which makes delivery FIFO for messages sent at the same instant and
 * the whole run deterministic. Nothing is allocated per push or pop once the arrays have
 * grown to the run's size.
 *
 * <p><b>Lanes and a heap.</b> Most events of a simulation are scheduled a <em>constant</em>
 * delay after the current time: every network message with a fixed latency, every
 * zero-latency hop, every probe timeout, every report period. Since the clock never goes
 * back, events pushed with the same delay arrive in non-decreasing time, so a plain FIFO
 * ring buffer per delay (a <em>lane</em>) keeps them sorted at O(1) per push and pop, in
 * sequential memory. Everything else (service completions, inter-arrival times, jittered
 * latencies, scripted events) goes to a 4-ary min-heap. {@link #pop} takes the smaller of
 * the heap's top and the lanes' heads; merging sorted sequences by (time, sequence) gives
 * exactly the order one heap would give, so the choice of lane never changes a result.
 *
 * <p>A delay gets a lane the second time it is seen among the last {@value #CANDIDATES}
 * delays that had none (a one-off random delay never does); at most {@value #LANES}
 * lanes exist, and an empty lane is handed to a new delay when all are taken. An event is
 * appended to its lane only if it is not earlier than the lane's tail (always true for a
 * delay from a non-decreasing clock; checked anyway), otherwise it goes to the heap.
 *
 * <p><b>Entries.</b> Each entry's ordering key is two longs side by side: the bits of its
 * non-negative time (which order like the doubles) and its <em>id</em>, the sequence number
 * in the high 39 bits, a timer flag in bit 24 and the target entity in the low 24 bits.
 * Ids are unique, so they also name an entry: the engine keeps the ids of live timers and
 * skips a popped timer whose id is no longer live without touching its payload. In the heap
 * the four children compared at each level share one or two cache lines (for large
 * clusters, where it outgrows the CPU caches); the payload array is only touched for the
 * entries that move.
 *
 * <p>docs/performance.md has the measurements behind this design (JMH, module
 * {@code benchmarks}).
 */
final class EventQueue {
    /** Largest entity index the packed key can carry. */
    static final int MAX_ENTITIES = 1 << 24;
    /** Most lanes (distinct constant delays) kept at once. */
    static final int LANES = 8;
    /** Recent lane-less delays remembered to spot a repeating one. */
    static final int CANDIDATES = 4;
    private static final long TARGET_MASK = MAX_ENTITIES - 1;
    private static final long TIMER = 1L << 24;
    private static final int SEQ_SHIFT = 25;
    private static final long EMPTY = Long.MAX_VALUE; // head key of an empty lane: after every real time
    private static final long NO_DELAY = -1L; // never the bits of a delay >= 0

    private long[] keys = new long[2048];
    private Object[] payload = new Object[1024];
    private int heapSize;
    private long nextSeq;

    private final Lane[] lanes = new Lane[LANES];
    private final long[] laneDelay = new long[LANES];
    private final long[] headTime = new long[LANES];
    private final long[] headSeq = new long[LANES];
    private int laneCount;
    private int minLane = -1;
    private final long[] candidates = new long[CANDIDATES];
    private int nextCandidate;

    private double poppedTime;
    private long poppedId;
    private Object poppedPayload;
    private long lastId;

    private final boolean useLanes;

    /** An event list with lanes (what the engine uses). */
    EventQueue() {
        this(true);
    }

    /**
     * @param useLanes false for the heap alone (benchmarks compare the two; same order)
     */
    EventQueue(boolean useLanes) {
        this.useLanes = useLanes;
        Arrays.fill(candidates, NO_DELAY);
        Arrays.fill(laneDelay, NO_DELAY);
        Arrays.fill(headTime, EMPTY);
    }

    /** Events pending (cancelled timers still in the list included). */
    int size() {
        int n = heapSize;
        for (int l = 0; l < laneCount; l++) {
            n += lanes[l].size;
        }
        return n;
    }

    boolean isEmpty() {
        return heapSize == 0 && minLane < 0;
    }

    /** Earliest pending time (+∞ when empty). */
    double peekTime() {
        if (minLane >= 0 && (heapSize == 0 || before(headTime[minLane], headSeq[minLane], keys[0], keys[1]))) {
            return Double.longBitsToDouble(headTime[minLane]);
        }
        return heapSize == 0 ? Double.POSITIVE_INFINITY : Double.longBitsToDouble(keys[0]);
    }

    /**
     * Adds an event at an arbitrary time (it goes to the heap).
     *
     * @param t time, seconds, ≥ 0
     * @param entity target entity index in [0, {@link #MAX_ENTITIES})
     * @param event the payload
     */
    void push(double t, int entity, Object event) {
        heapPush(Double.doubleToRawLongBits(t + 0.0), nextId(entity, 0), event); // +0.0 folds -0.0 into 0.0
    }

    /**
     * Adds an event {@code delay} seconds after {@code now}, at time {@code now + delay}: in
     * the lane of that delay if it has one, else in the heap.
     *
     * @param now the current time, seconds, ≥ 0 and not before any earlier call's {@code now}
     * @param delay seconds, ≥ 0
     * @param entity target entity index in [0, {@link #MAX_ENTITIES})
     * @param event the payload
     * @return the lane the event went to, or -1 for the heap
     */
    int pushAfter(double now, double delay, int entity, Object event) {
        return pushAfter(now, delay, nextId(entity, 0), event);
    }

    /**
     * Adds a timer event {@code delay} seconds after {@code now}, as {@link #pushAfter}; its
     * id ({@link #lastId}) has the timer flag, which {@link #poppedTimer} reports.
     *
     * @param message the timer's message
     */
    void pushTimerAfter(double now, double delay, int entity, Object message) {
        pushAfter(now, delay, nextId(entity, TIMER), message);
    }

    /** The id of the entry pushed last. */
    long lastId() {
        return lastId;
    }

    private long nextId(int entity, long flags) {
        lastId = (nextSeq++ << SEQ_SHIFT) | flags | entity;
        return lastId;
    }

    private int pushAfter(double now, double delay, long sk, Object event) {
        long tk = Double.doubleToRawLongBits(now + delay + 0.0);
        if (!useLanes) {
            return heapPush(tk, sk, event);
        }
        long db = Double.doubleToRawLongBits(delay + 0.0);
        for (int l = 0; l < laneCount; l++) {
            if (laneDelay[l] == db) {
                return lanes[l].tailTime <= tk ? append(l, tk, sk, event) : heapPush(tk, sk, event);
            }
        }
        if (delay >= 0 && isCandidate(db)) {
            int l = claimLane(db);
            if (l >= 0) {
                return append(l, tk, sk, event);
            }
        }
        return heapPush(tk, sk, event);
    }

    /**
     * Removes the entry with id {@code id} if it is the last one appended to its lane (a
     * timer cancelled before anything else was scheduled with its delay): it then costs no
     * pop. Otherwise nothing happens.
     *
     * @param id an id from {@link #lastId}
     * @return true if it was removed
     */
    boolean dropIfLast(long id) {
        for (int l = 0; l < laneCount; l++) {
            Lane ln = lanes[l];
            if (ln.lastAppend == id && ln.size > 0) {
                int last = (ln.head + ln.size - 1) & ln.mask;
                ln.payload[last] = null;
                ln.size--;
                ln.lastAppend = -1;
                if (ln.size == 0) {
                    ln.tailTime = 0;
                    headTime[l] = EMPTY;
                    headSeq[l] = EMPTY;
                    if (minLane == l) {
                        minLane = findMinLane();
                    }
                } else {
                    ln.tailTime = ln.keys[2 * ((last - 1) & ln.mask)];
                }
                return true;
            }
        }
        return false;
    }

    /** Removes the earliest event; read it with {@link #time()}, {@link #target()}, {@link #payload()}. */
    void pop() {
        int l = minLane;
        if (l >= 0 && (heapSize == 0 || before(headTime[l], headSeq[l], keys[0], keys[1]))) {
            popLane(l);
        } else {
            popHeap();
        }
    }

    /**
     * {@link #pop} if the list holds an event due at or before {@code maxTime} seconds (one
     * comparison of the heads instead of {@link #peekTime} and {@code pop} each making it).
     *
     * @return false, and nothing removed, if the list is empty or its earliest event is later
     */
    boolean popNotAfter(double maxTime) {
        int l = minLane;
        if (l >= 0 && (heapSize == 0 || before(headTime[l], headSeq[l], keys[0], keys[1]))) {
            if (Double.longBitsToDouble(headTime[l]) > maxTime) {
                return false;
            }
            popLane(l);
        } else {
            if (heapSize == 0 || Double.longBitsToDouble(keys[0]) > maxTime) {
                return false;
            }
            popHeap();
        }
        return true;
    }

    double time() {
        return poppedTime;
    }

    int target() {
        return (int) (poppedId & TARGET_MASK);
    }

    /** Id of the popped entry. */
    long poppedId() {
        return poppedId;
    }

    /** True if the popped entry is a timer ({@link #pushTimerAfter}). */
    boolean poppedTimer() {
        return (poppedId & TIMER) != 0;
    }

    Object payload() {
        return poppedPayload;
    }

    /** Number of lanes in use (tests and benchmarks). */
    int laneCount() {
        return laneCount;
    }

    private static boolean before(long t1, long s1, long t2, long s2) {
        return t1 < t2 || (t1 == t2 && s1 < s2);
    }

    // ---- lanes -------------------------------------------------------------------------

    private boolean isCandidate(long db) {
        for (long c : candidates) {
            if (c == db) {
                return true;
            }
        }
        candidates[nextCandidate] = db;
        nextCandidate = (nextCandidate + 1) % CANDIDATES;
        return false;
    }

    /** A lane for delay {@code db}: a new one, or the longest-unused empty one; -1 if all are busy. */
    private int claimLane(long db) {
        int l;
        if (laneCount < LANES) {
            l = laneCount++;
            lanes[l] = new Lane();
        } else {
            l = -1;
            for (int i = 0; i < LANES; i++) {
                if (lanes[i].size == 0 && (l < 0 || lanes[i].lastAppend < lanes[l].lastAppend)) {
                    l = i;
                }
            }
            if (l < 0) {
                return -1;
            }
        }
        laneDelay[l] = db;
        lanes[l].tailTime = 0;
        lanes[l].lastAppend = -1;
        for (int i = 0; i < CANDIDATES; i++) {
            if (candidates[i] == db) {
                candidates[i] = NO_DELAY;
            }
        }
        return l;
    }

    private int append(int l, long tk, long sk, Object event) {
        Lane ln = lanes[l];
        if (ln.size == ln.payload.length) {
            ln.grow();
        }
        int i = (ln.head + ln.size) & ln.mask;
        ln.keys[2 * i] = tk;
        ln.keys[2 * i + 1] = sk;
        ln.payload[i] = event;
        ln.tailTime = tk;
        ln.lastAppend = sk;
        if (ln.size++ == 0) {
            headTime[l] = tk;
            headSeq[l] = sk;
            if (minLane < 0 || before(tk, sk, headTime[minLane], headSeq[minLane])) {
                minLane = l;
            }
        }
        return l;
    }

    private void popLane(int l) {
        Lane ln = lanes[l];
        int h = ln.head;
        poppedTime = Double.longBitsToDouble(ln.keys[2 * h]);
        poppedId = ln.keys[2 * h + 1];
        poppedPayload = ln.payload[h];
        ln.payload[h] = null;
        ln.head = (h + 1) & ln.mask;
        if (--ln.size == 0) {
            headTime[l] = EMPTY;
            headSeq[l] = EMPTY;
        } else {
            headTime[l] = ln.keys[2 * ln.head];
            headSeq[l] = ln.keys[2 * ln.head + 1];
        }
        minLane = findMinLane();
    }

    private int findMinLane() {
        int best = -1;
        long bt = EMPTY;
        long bs = EMPTY;
        for (int l = 0; l < laneCount; l++) {
            long t = headTime[l];
            if (t < bt || (t == bt && t != EMPTY && headSeq[l] < bs)) {
                best = l;
                bt = t;
                bs = headSeq[l];
            }
        }
        return best;
    }

    /** A FIFO ring buffer of events pushed with one delay, hence in (time, sequence) order. */
    private static final class Lane {
        long[] keys = new long[512];
        Object[] payload = new Object[256];
        int head;
        int size;
        int mask = 255;
        long tailTime;
        long lastAppend;

        void grow() {
            int n = payload.length;
            long[] k2 = new long[4 * n];
            Object[] p2 = new Object[2 * n];
            for (int i = 0; i < size; i++) {
                int from = (head + i) & mask;
                k2[2 * i] = keys[2 * from];
                k2[2 * i + 1] = keys[2 * from + 1];
                p2[i] = payload[from];
            }
            keys = k2;
            payload = p2;
            head = 0;
            mask = 2 * n - 1;
        }
    }

    // ---- heap --------------------------------------------------------------------------

    private int heapPush(long tk, long sk, Object event) {
        if (heapSize == payload.length) {
            keys = Arrays.copyOf(keys, keys.length * 2);
            payload = Arrays.copyOf(payload, payload.length * 2);
        }
        int i = heapSize++;
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            long pt = keys[2 * parent];
            if (pt < tk || (pt == tk && keys[2 * parent + 1] < sk)) {
                break;
            }
            keys[2 * i] = pt;
            keys[2 * i + 1] = keys[2 * parent + 1];
            payload[i] = payload[parent];
            i = parent;
        }
        keys[2 * i] = tk;
        keys[2 * i + 1] = sk;
        payload[i] = event;
        return -1;
    }

    private void popHeap() {
        poppedTime = Double.longBitsToDouble(keys[0]);
        poppedId = keys[1];
        poppedPayload = payload[0];
        int last = --heapSize;
        long tk = keys[2 * last];
        long sk = keys[2 * last + 1];
        Object p = payload[last];
        payload[last] = null;
        if (last == 0) {
            return;
        }
        int i = 0;
        while (true) {
            int first = 4 * i + 1;
            if (first >= heapSize) {
                break;
            }
            int child = first;
            long ct = keys[2 * first];
            long cs = keys[2 * first + 1];
            int end = Math.min(first + 4, heapSize);
            for (int c = first + 1; c < end; c++) {
                long t = keys[2 * c];
                if (t < ct || (t == ct && keys[2 * c + 1] < cs)) {
                    child = c;
                    ct = t;
                    cs = keys[2 * c + 1];
                }
            }
            if (tk < ct || (tk == ct && sk < cs)) {
                break;
            }
            keys[2 * i] = ct;
            keys[2 * i + 1] = cs;
            payload[i] = payload[child];
            i = child;
        }
        keys[2 * i] = tk;
        keys[2 * i + 1] = sk;
        payload[i] = p;
    }
}
