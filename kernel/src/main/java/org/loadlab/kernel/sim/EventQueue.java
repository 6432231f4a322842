package org.loadlab.kernel.sim;

import java.util.Arrays;

/**
 * The simulation's future-event list: a 4-ary min-heap ordered by (time, sequence
 * number). Equal times pop in insertion order, which makes delivery FIFO for messages
 * sent at the same instant and the whole run deterministic.
 *
 * <p>Layout, for large clusters where the heap outgrows the CPU caches: each entry's
 * ordering key is two longs side by side in one array (the bits of its non-negative
 * time, which order like the doubles, and its sequence number with the target entity in
 * the low 24 bits), so the four children compared at each level share one or two cache
 * lines; the payload array is only touched for the entries that move. Nothing is
 * allocated per push or pop.
 */
final class EventQueue {
    /** Largest entity index the packed key can carry. */
    static final int MAX_ENTITIES = 1 << 24;
    private static final long TARGET_MASK = MAX_ENTITIES - 1;

    private long[] keys = new long[2048];
    private Object[] payload = new Object[1024];
    private int size;
    private long nextSeq;

    private double poppedTime;
    private int poppedTarget;
    private Object poppedPayload;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Earliest pending time (+∞ when empty). */
    double peekTime() {
        return size == 0 ? Double.POSITIVE_INFINITY : Double.longBitsToDouble(keys[0]);
    }

    /**
     * Adds an event.
     *
     * @param t time, seconds, ≥ 0
     * @param entity target entity index in [0, {@link #MAX_ENTITIES})
     * @param event the payload
     */
    void push(double t, int entity, Object event) {
        if (size == payload.length) {
            keys = Arrays.copyOf(keys, keys.length * 2);
            payload = Arrays.copyOf(payload, payload.length * 2);
        }
        long tk = Double.doubleToRawLongBits(t + 0.0); // +0.0 folds -0.0 into 0.0
        long sk = (nextSeq++ << 24) | entity;
        int i = size++;
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
    }

    /** Removes the earliest event; read it with {@link #time()}, {@link #target()}, {@link #payload()}. */
    void pop() {
        poppedTime = Double.longBitsToDouble(keys[0]);
        poppedTarget = (int) (keys[1] & TARGET_MASK);
        poppedPayload = payload[0];
        int last = --size;
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
            if (first >= size) {
                break;
            }
            int child = first;
            long ct = keys[2 * first];
            long cs = keys[2 * first + 1];
            int end = Math.min(first + 4, size);
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

    double time() {
        return poppedTime;
    }

    int target() {
        return poppedTarget;
    }

    Object payload() {
        return poppedPayload;
    }
}
