package org.loadlab.studies.production;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.loadlab.experiment.run.RoutingTap;

/**
 * A run second by second: the requests (and retries) routed to each node, and the increments
 * of every counter, in 1 s buckets from time 0.
 */
public final class SecondCounts implements RoutingTap {
    private final int nodes;
    private final List<int[]> routed = new ArrayList<>();
    private final Map<String, List<Long>> counters = new HashMap<>();

    /** @param nodes n */
    public SecondCounts(int nodes) {
        this.nodes = nodes;
    }

    @Override
    public void routed(double now, int balancer, int node) {
        int s = (int) Math.floor(now);
        while (routed.size() <= s) {
            routed.add(new int[nodes]);
        }
        routed.get(s)[node]++;
    }

    @Override
    public void counted(double now, String name, long delta) {
        int s = (int) Math.floor(now);
        List<Long> list = counters.computeIfAbsent(name, k -> new ArrayList<>());
        while (list.size() <= s) {
            list.add(0L);
        }
        list.set(s, list.get(s) + delta);
    }

    /** Seconds with data. */
    public int seconds() {
        return routed.size();
    }

    /** Requests routed to {@code node} in second {@code s}. */
    public int routed(int s, int node) {
        return s < routed.size() ? routed.get(s)[node] : 0;
    }

    /** Requests routed to any node in second {@code s}. */
    public int routed(int s) {
        int sum = 0;
        for (int j = 0; j < nodes; j++) {
            sum += routed(s, j);
        }
        return sum;
    }

    /** Requests routed to the given nodes during [from, to) seconds. */
    public long routed(int from, int to, int[] which) {
        long sum = 0;
        for (int s = from; s < to; s++) {
            for (int j : which) {
                sum += routed(s, j);
            }
        }
        return sum;
    }

    /** Requests routed to any node during [from, to) seconds. */
    public long routedBetween(int from, int to) {
        long sum = 0;
        for (int s = from; s < to; s++) {
            sum += routed(s);
        }
        return sum;
    }

    /** Increments of counter {@code name} during [from, to) seconds. */
    public long counted(String name, int from, int to) {
        List<Long> list = counters.get(name);
        long sum = 0;
        if (list != null) {
            for (int s = from; s < Math.min(to, list.size()); s++) {
                sum += list.get(s);
            }
        }
        return sum;
    }
}
