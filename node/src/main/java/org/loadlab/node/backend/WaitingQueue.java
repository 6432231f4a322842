package org.loadlab.node.backend;

import org.loadlab.node.protocol.NodeMessage;

/**
 * FIFO ring buffer of waiting requests together with the instant each one was
 * enqueued (for the waiting-time metric). Grows by doubling; never allocates per element.
 */
final class WaitingQueue {
    private NodeMessage.Request[] requests = new NodeMessage.Request[16];
    private double[] since = new double[16];
    private int head;
    private int size;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    void add(NodeMessage.Request r, double enqueuedAt) {
        if (size == requests.length) {
            grow();
        }
        int tail = (head + size) & (requests.length - 1);
        requests[tail] = r;
        since[tail] = enqueuedAt;
        size++;
    }

    /** Enqueue time of the head; only valid when not empty. */
    double headSince() {
        return since[head];
    }

    NodeMessage.Request poll() {
        NodeMessage.Request r = requests[head];
        requests[head] = null;
        head = (head + 1) & (requests.length - 1);
        size--;
        return r;
    }

    void clear() {
        java.util.Arrays.fill(requests, null);
        head = 0;
        size = 0;
    }

    private void grow() {
        int n = requests.length;
        NodeMessage.Request[] r2 = new NodeMessage.Request[n * 2];
        double[] s2 = new double[n * 2];
        for (int i = 0; i < size; i++) {
            r2[i] = requests[(head + i) & (n - 1)];
            s2[i] = since[(head + i) & (n - 1)];
        }
        requests = r2;
        since = s2;
        head = 0;
    }
}
