package org.loadlab.node.backend;

/**
 * A backend node's FCFS waiting line (the jobs waiting for a server, each with the instant
 * it joined, for the waiting-time metric), kept as fields of the node object itself:
 * {@link BackendNode} extends this class. The four oldest waiting jobs are in the fields
 * {@code job0..job3} and {@code since0..since3}, a ring of four; the rest, in order, in an
 * overflow {@link TimedQueue} created when a fifth job first waits.
 *
 * <p>Why: in the bench workload (p2c at ρ = 0.9) most requests wait, so the waiting line is
 * touched at most request arrivals and completions; as a queue object with two arrays it was
 * three more dependent cache misses per touch at 10^5 nodes. A node rarely has more than four
 * waiting (one server, p2c at ρ = 0.9: six or more in the node about 0.1% of the time, the
 * supermarket model's 0.9^63), so the ring is touched with the node's other fields and the
 * overflow almost never (docs/performance.md, "The server and waiting line in the node").
 *
 * <p>Invariant: the overflow holds a job only while the ring is full, so the ring holds the
 * oldest four and FIFO order is ring then overflow. Not thread-safe (one node owns it).
 *
 * @param <T> the job type
 */
class WaitingLine<T> extends NodeLoadState {
    /** Jobs kept in the node's own fields before the overflow queue is used. */
    static final int INLINE = 4;

    private Object job0;
    private Object job1;
    private Object job2;
    private Object job3;
    private double since0;
    private double since1;
    private double since2;
    private double since3;
    private int ringHead; // slot 0..3 of the oldest inline job
    private int ringSize; // inline jobs, 0..4
    private TimedQueue<T> overflow; // the jobs after the inline four; created on first need

    /**
     * @param resourcePeriod seconds between resource updates, &gt; 0 (see {@link NodeLoadState})
     * @param feedback gain, clip bounds and window of the feedback correction
     */
    WaitingLine(double resourcePeriod, FeedbackSettings feedback) {
        super(resourcePeriod, feedback);
    }

    /** Jobs waiting. */
    final int waitingSize() {
        return ringSize + (overflow == null ? 0 : overflow.size());
    }

    /**
     * Appends {@code job}, which joined at {@code enqueuedAt} seconds.
     *
     * @param job the job, not null
     * @param enqueuedAt time it joined, seconds
     */
    final void addWaiting(T job, double enqueuedAt) {
        if (ringSize < INLINE) { // the overflow is empty (invariant)
            put((ringHead + ringSize) & (INLINE - 1), job, enqueuedAt);
            ringSize++;
            return;
        }
        if (overflow == null) {
            overflow = new TimedQueue<>();
        }
        overflow.add(job, enqueuedAt);
    }

    /** The instant the oldest waiting job joined, seconds; only valid when one waits. */
    final double waitingHeadSince() {
        return switch (ringHead) {
            case 0 -> since0;
            case 1 -> since1;
            case 2 -> since2;
            default -> since3;
        };
    }

    /** Removes and returns the oldest waiting job; only valid when one waits. */
    final T pollWaiting() {
        int head = ringHead;
        T job = jobAt(head);
        if (overflow != null && !overflow.isEmpty()) {
            // The ring is full: the freed slot becomes its tail and takes the overflow's oldest.
            double since = overflow.headSince();
            put(head, overflow.poll(), since);
        } else {
            put(head, null, 0.0);
            ringSize--;
        }
        ringHead = (head + 1) & (INLINE - 1);
        return job;
    }

    /**
     * The waiting job at position {@code i} from the oldest (0).
     *
     * @throws IndexOutOfBoundsException if {@code i} is not in [0, waitingSize())
     */
    final T waitingAt(int i) {
        if (i < 0 || i >= waitingSize()) {
            throw new IndexOutOfBoundsException("position " + i + " of a waiting line of " + waitingSize());
        }
        return i < ringSize ? jobAt((ringHead + i) & (INLINE - 1)) : overflow.get(i - ringSize);
    }

    /** Drops every waiting job (a failure). */
    final void clearWaiting() {
        job0 = null;
        job1 = null;
        job2 = null;
        job3 = null;
        ringHead = 0;
        ringSize = 0;
        if (overflow != null) {
            overflow.clear();
        }
    }

    @SuppressWarnings("unchecked")
    private T jobAt(int slot) {
        return (T) switch (slot) {
            case 0 -> job0;
            case 1 -> job1;
            case 2 -> job2;
            default -> job3;
        };
    }

    private void put(int slot, Object job, double since) {
        switch (slot) {
            case 0 -> {
                job0 = job;
                since0 = since;
            }
            case 1 -> {
                job1 = job;
                since1 = since;
            }
            case 2 -> {
                job2 = job;
                since2 = since;
            }
            default -> {
                job3 = job;
                since3 = since;
            }
        }
    }
}
