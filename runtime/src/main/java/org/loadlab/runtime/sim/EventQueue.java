package org.loadlab.runtime.sim;

/**
 * The simulation's future-event list: a binary min-heap ordered by (time, sequence
 * number), kept in parallel primitive arrays so that a push or pop allocates nothing
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
            int parent = (i - 1) >>> 1;
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
        int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            int right = child + 1;
            if (right < size && (time[right] < time[child] || (time[right] == time[child] && seq[right] < seq[child]))) {
                child = right;
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
