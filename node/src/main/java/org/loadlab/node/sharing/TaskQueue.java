package org.loadlab.node.sharing;

/**
 * FIFO ring buffer of waiting tasks with the instant each joined the queue (for the waiting
 * time metric), plus removal of the newest task that may still be transferred (the selection
 * policy "newly arrived tasks" of the slides). Grows by doubling.
 */
final class TaskQueue {
    private Task[] tasks = new Task[16];
    private double[] since = new double[16];
    private int head;
    private int size;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    void add(Task t, double enqueuedAt) {
        if (size == tasks.length) {
            grow();
        }
        int tail = (head + size) & (tasks.length - 1);
        tasks[tail] = t;
        since[tail] = enqueuedAt;
        size++;
    }

    /** Enqueue time of the head; only valid when not empty. */
    double headSince() {
        return since[head];
    }

    /** Removes and returns the head (the oldest waiting task); only valid when not empty. */
    Task poll() {
        Task t = tasks[head];
        tasks[head] = null;
        head = (head + 1) & (tasks.length - 1);
        size--;
        return t;
    }

    /** Position (0 = head) of the newest task with fewer than {@code maxTransfers} transfers, or −1. */
    int newestEligible(int maxTransfers) {
        int mask = tasks.length - 1;
        for (int i = size - 1; i >= 0; i--) {
            if (tasks[(head + i) & mask].transfers() < maxTransfers) {
                return i;
            }
        }
        return -1;
    }

    /** Removes and returns the task at position {@code i} (0 = head), keeping the others in order. */
    Task removeAt(int i) {
        int mask = tasks.length - 1;
        Task t = tasks[(head + i) & mask];
        for (int k = i; k < size - 1; k++) {
            tasks[(head + k) & mask] = tasks[(head + k + 1) & mask];
            since[(head + k) & mask] = since[(head + k + 1) & mask];
        }
        tasks[(head + size - 1) & mask] = null;
        size--;
        return t;
    }

    void clear() {
        java.util.Arrays.fill(tasks, null);
        head = 0;
        size = 0;
    }

    private void grow() {
        int n = tasks.length;
        Task[] t2 = new Task[n * 2];
        double[] s2 = new double[n * 2];
        for (int i = 0; i < size; i++) {
            t2[i] = tasks[(head + i) & (n - 1)];
            s2[i] = since[(head + i) & (n - 1)];
        }
        tasks = t2;
        since = s2;
        head = 0;
    }
}
