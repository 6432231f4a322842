package org.loadlab.node.sharing;

import java.util.ArrayDeque;
import org.loadlab.kernel.Env;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.NodeId;

/**
 * Holds outgoing messages back for a constant {@code delay} before handing them to the shell
 * (which adds its own network latency): how the poll latency and the transfer delay of the
 * load-sharing parameters are applied. One timer per line; with a constant delay the line is
 * FIFO, so per-pair order is kept. A zero delay sends at once.
 */
final class DelayLine {
    /** Slack for a timer that the shell delivers a rounding error early, seconds. */
    private static final double SLACK = 1e-9;

    private final double delay;
    private final SharingMessage.Flush flush;
    private final Object key = new Object();
    private final ArrayDeque<Entry> pending = new ArrayDeque<>();

    private record Entry(double due, NodeId to, Message message) {
    }

    /**
     * @param delay seconds, ≥ 0
     * @param line 0 or 1, carried by this line's {@link SharingMessage.Flush} timer
     */
    DelayLine(double delay, int line) {
        this.delay = delay;
        this.flush = new SharingMessage.Flush(line);
    }

    void send(Env env, NodeId to, Message message) {
        if (delay == 0) {
            env.send(to, message);
            return;
        }
        pending.add(new Entry(env.now() + delay, to, message));
        if (pending.size() == 1) {
            env.startTimer(key, delay, flush);
        }
    }

    void flush(Env env) {
        double now = env.now();
        while (!pending.isEmpty() && pending.peek().due() <= now + SLACK) {
            Entry e = pending.poll();
            env.send(e.to(), e.message());
        }
        if (!pending.isEmpty()) {
            env.startTimer(key, Math.max(0.0, pending.peek().due() - now), flush);
        }
    }

    /** Messages held back now. */
    int size() {
        return pending.size();
    }
}
