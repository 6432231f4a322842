package org.loadlab.runtime.sim;

/**
 * The simulation's future-event list: a 4-ary min-heap ordered by (time, sequence
 * number) (shallower than a binary heap, so a pop touches fewer cache lines), kept in parallel primitive arrays so that a push or pop allocates nothing
 * and compares without pointer chasing. Equal times pop in insertion order, which makes
 * delivery FIFO for messages sent at the same instant and the whole run deterministic.
 */
final class EventQueue {
    private double[] time = new double[1024];
    private long[] seq = new long[1024];
    private int[] target = new int[1024];
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
        return size == 0 ? Double.POSITIVE_INFINITY : time[0];
    }

    void push(double t, int entity, Object event) {
        if (size == time.length) {
            grow();
        }
        long s = nextSeq++;
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            if (time[parent] < t || (time[parent] == t && seq[parent] < s)) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        time[i] = t;
        seq[i] = s;
        target[i] = entity;
        payload[i] = event;
    }

    /** Removes the earliest event; read it with {@link #time()}, {@link #target()}, {@link #payload()}. */
    void pop() {
        poppedTime = time[0];
        poppedTarget = target[0];
        poppedPayload = payload[0];
        int last = --size;
        double t = time[last];
        long s = seq[last];
        int tg = target[last];
        Object p = payload[last];
        payload[last] = null;
        int i = 0;
        while (true) {
            int first = 4 * i + 1;
            if (first >= size) {
                break;
            }
            int child = first;
            int end = Math.min(first + 4, size);
            for (int c = first + 1; c < end; c++) {
                if (time[c] < time[child] || (time[c] == time[child] && seq[c] < seq[child])) {
                    child = c;
                }
            }
            if (t < time[child] || (t == time[child] && s < seq[child])) {
                break;
            }
            move(child, i);
            i = child;
        }
        if (size > 0) {
            time[i] = t;
            seq[i] = s;
            target[i] = tg;
            payload[i] = p;
        }
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

    private void move(int from, int to) {
        time[to] = time[from];
        seq[to] = seq[from];
        target[to] = target[from];
        payload[to] = payload[from];
    }

    private void grow() {
        int n = time.length * 2;
        time = java.util.Arrays.copyOf(time, n);
        seq = java.util.Arrays.copyOf(seq, n);
        target = java.util.Arrays.copyOf(target, n);
        payload = java.util.Arrays.copyOf(payload, n);
    }
}
