package org.loadlab.node.backend;

import java.util.Arrays;

/**
 * FIFO ring buffer of waiting jobs (requests of a backend node, tasks of a load-sharing
 * peer) together with the instant each one was enqueued, for the waiting-time metric.
 * Grows by doubling; allocates nothing per element. Not thread-safe (one node owns it).
 *
 * @param <T> the job type
 */
public final class TimedQueue<T> {
    // Small at first: a cluster of 10^6 nodes holds 10^6 of these, most with a job or two
    // waiting (16 slots cost 144 MB more there); grows by doubling.
    private Object[] jobs = new Object[4];
    private double[] since = new double[4];
    private int head;
    private int size;

    /** Jobs waiting. */
    public int size() {
        return size;
    }

    /** True when nothing waits. */
    public boolean isEmpty() {
        return size == 0;
    }

    /**
     * Appends {@code job}, enqueued at {@code enqueuedAt} seconds.
     *
     * @param job the job, not null
     * @param enqueuedAt time it joined the queue, seconds
     */
    public void add(T job, double enqueuedAt) {
        if (size == jobs.length) {
            grow();
        }
        int tail = (head + size) & (jobs.length - 1);
        jobs[tail] = job;
        since[tail] = enqueuedAt;
        size++;
    }

    /** Enqueue time of the head, seconds; only valid when not empty. */
    public double headSince() {
        return since[head];
    }

    /** Removes and returns the head (the oldest job); only valid when not empty. */
    @SuppressWarnings("unchecked")
    public T poll() {
        T job = (T) jobs[head];
        jobs[head] = null;
        head = (head + 1) & (jobs.length - 1);
        size--;
        return job;
    }

    /**
     * The job at position {@code i} from the head (0 = oldest).
     *
     * @throws IndexOutOfBoundsException if {@code i} is not in [0, size)
     */
    @SuppressWarnings("unchecked")
    public T get(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("position " + i + " of a queue of " + size);
        }
        return (T) jobs[(head + i) & (jobs.length - 1)];
    }

    /**
     * Removes and returns the job at position {@code i} from the head, keeping the order of
     * the others (O(size − i)).
     *
     * @throws IndexOutOfBoundsException if {@code i} is not in [0, size)
     */
    public T removeAt(int i) {
        T job = get(i);
        int mask = jobs.length - 1;
        for (int k = i; k < size - 1; k++) {
            jobs[(head + k) & mask] = jobs[(head + k + 1) & mask];
            since[(head + k) & mask] = since[(head + k + 1) & mask];
        }
        jobs[(head + size - 1) & mask] = null;
        size--;
        return job;
    }

    /** Drops every job (a failure). */
    public void clear() {
        Arrays.fill(jobs, null);
        head = 0;
        size = 0;
    }

    private void grow() {
        int n = jobs.length;
        Object[] j2 = new Object[n * 2];
        double[] s2 = new double[n * 2];
        for (int i = 0; i < size; i++) {
            j2[i] = jobs[(head + i) & (n - 1)];
            s2[i] = since[(head + i) & (n - 1)];
        }
        jobs = j2;
        since = s2;
        head = 0;
    }
}
