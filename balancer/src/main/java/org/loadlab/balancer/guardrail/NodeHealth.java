package org.loadlab.balancer.guardrail;

import java.util.Locale;
import org.loadlab.node.protocol.LoadSnapshot;

/**
 * What one balancer knows of each node's health: its membership (reachable, unreachable,
 * removed — from {@code NodeUnreachable}, {@code NodeReachable}, {@code NodeRemoved},
 * {@code NodeJoined}), the newest load it saw (probe reply, report), when it last heard
 * from it, its run of unanswered probes, and the guardrails' ejection ledger: which nodes
 * are masked and why, never more than the cap at once (Envoy's outlier ejection with
 * {@code max_ejection_percent}). The ledger holds two kinds of mask: a guardrail's, which
 * lasts while its condition holds, and an outlier ejection ({@link OutlierDetector}), which
 * lasts until its end time whatever the conditions say. Pure state; the balancer calls it on
 * every piece of news.
 *
 * <p>Source: seed 003 (masking, offline detection), Envoy (outlier ejection cap).
 */
public final class NodeHealth {
    /** Membership states. */
    public enum Membership {
        /** The node's member is up and reachable. */
        REACHABLE,
        /** The failure detector lost the member (or a partition cut it off); it may come back. */
        UNREACHABLE,
        /** The member left or was downed; the node never comes back under this id. */
        REMOVED,
        /** The member is leaving gracefully (scale-down): no new requests; those in flight complete. */
        LEAVING
    }

    private final Guardrails settings;
    private final Membership[] membership;
    private final LoadSnapshot[] latest;
    private final double[] lastHeard;
    private final boolean[] reports;
    private final int[] missedProbes;
    private final String[] ejected;
    private final double[] outlierUntil;
    private final String[] outlierReason;
    private final boolean active;
    private final int cap;
    private int ejectedCount;
    /** Nodes not {@link Membership#REACHABLE} now (0 on the common path: every check of a node is then one field read). */
    private int notReachable;
    /** Nodes {@link Membership#REMOVED} now. */
    private int removedCount;

    /**
     * @param settings the guardrails
     * @param nodeCount n
     * @param allowedCount |allowed| (the ejection cap is a share of it)
     */
    public NodeHealth(Guardrails settings, int nodeCount, int allowedCount) {
        this(settings, nodeCount, allowedCount, false);
    }

    /**
     * @param settings the guardrails
     * @param nodeCount n
     * @param allowedCount |allowed| (the ejection cap is a share of it)
     * @param outlierDetection true if outlier ejections use this ledger (the cap then applies
     *     even with the guardrails' own conditions off)
     */
    public NodeHealth(Guardrails settings, int nodeCount, int allowedCount, boolean outlierDetection) {
        this.settings = settings;
        this.membership = new Membership[nodeCount];
        java.util.Arrays.fill(membership, Membership.REACHABLE);
        this.latest = new LoadSnapshot[nodeCount];
        this.lastHeard = new double[nodeCount];
        this.reports = new boolean[nodeCount];
        this.missedProbes = new int[nodeCount];
        this.ejected = new String[nodeCount];
        this.outlierUntil = new double[nodeCount];
        java.util.Arrays.fill(outlierUntil, Double.NaN);
        this.outlierReason = new String[nodeCount];
        this.active = settings.enabled() || outlierDetection;
        this.cap = active ? settings.ejectionCap(allowedCount) : 0;
    }

    /** The guardrail settings. */
    public Guardrails settings() {
        return settings;
    }

    /** The node's membership state. */
    public Membership membership(int node) {
        return membership[node];
    }

    /** Why membership keeps the node out of the pool, or null while it is reachable. */
    public String membershipReason(int node) {
        return switch (membership[node]) {
            case REACHABLE -> null;
            case UNREACHABLE -> "unreachable";
            case REMOVED -> "removed from the cluster";
            case LEAVING -> "leaving the cluster";
        };
    }

    /**
     * True if the node cannot be routed to: unreachable, removed or leaving. While every node
     * is reachable this reads no per-node state (at 10^5 nodes a per-node read is a cache miss).
     */
    public boolean gone(int node) {
        return notReachable != 0 && membership[node] != Membership.REACHABLE;
    }

    /** True if the node was removed from the cluster (reads no per-node state while none is). */
    public boolean removed(int node) {
        return removedCount != 0 && membership[node] == Membership.REMOVED;
    }

    /**
     * Sets the node's membership; a removed node stays removed unless it joins again.
     *
     * @return true if the state changed
     */
    public boolean membership(int node, Membership state) {
        Membership now = membership[node];
        if (now == state || now == Membership.REMOVED && (state == Membership.UNREACHABLE || state == Membership.LEAVING)
                || now == Membership.LEAVING && state == Membership.UNREACHABLE) {
            return false;
        }
        membership[node] = state;
        notReachable += (state == Membership.REACHABLE ? 0 : 1) - (now == Membership.REACHABLE ? 0 : 1);
        removedCount += (state == Membership.REMOVED ? 1 : 0) - (now == Membership.REMOVED ? 1 : 0);
        if (state != Membership.REACHABLE && ejected[node] != null) {
            ejected[node] = null; // a gone node no longer uses up the ejection cap
            ejectedCount--;
        }
        if (state != Membership.REACHABLE) {
            outlierUntil[node] = Double.NaN;
            outlierReason[node] = null;
        }
        if (state == Membership.REACHABLE) {
            missedProbes[node] = 0;
        }
        return true;
    }

    /** A probe reply of the node arrived at {@code now}. */
    public void seen(LoadSnapshot load, double now) {
        int j = load.node();
        if (latest[j] == null || latest[j].sampledAt() <= load.sampledAt()) {
            latest[j] = load;
        }
        lastHeard[j] = Math.max(lastHeard[j], now);
        missedProbes[j] = 0;
    }

    /** A load report of the node arrived at {@code now}: from now on its silence means something. */
    public void reported(LoadSnapshot load, double now) {
        seen(load, now);
        reports[load.node()] = true;
    }

    /** A heartbeat of the node arrived at {@code now}: from now on its silence means something. */
    public void heard(int node, double now) {
        lastHeard[node] = Math.max(lastHeard[node], now);
        reports[node] = true;
    }

    /** A probe to the node went unanswered until its timeout. */
    public void missedProbe(int node) {
        missedProbes[node]++;
    }

    /** The newest load seen of the node, or null. */
    public LoadSnapshot latest(int node) {
        return latest[node];
    }

    /** Why the node is masked now, or null. */
    public String ejected(int node) {
        return ejected[node];
    }

    /** Nodes masked now. */
    public int ejectedCount() {
        return ejectedCount;
    }

    /** Result of {@link #ejectOutlier}: the node was masked now. */
    public static final int EJECTED = 1;
    /** Result of {@link #ejectOutlier}: the node was masked already (its ejection now runs to the new end). */
    public static final int ALREADY_MASKED = 0;
    /** Result of {@link #ejectOutlier}: the cap is reached (or the node is gone): not ejected. */
    public static final int CAPPED = -1;

    /**
     * Ejects the node as an outlier until {@code until}, if the cap allows.
     *
     * @param node the node
     * @param until end of the ejection, seconds
     * @param reason why, for explanations
     * @return {@link #EJECTED}, {@link #ALREADY_MASKED} or {@link #CAPPED}
     */
    public int ejectOutlier(int node, double until, String reason) {
        if (!active || gone(node)) {
            return CAPPED;
        }
        if (ejected[node] == null && ejectedCount >= cap) {
            return CAPPED;
        }
        outlierUntil[node] = until;
        outlierReason[node] = reason;
        if (ejected[node] != null) {
            ejected[node] = reason;
            return ALREADY_MASKED;
        }
        ejected[node] = reason;
        ejectedCount++;
        return EJECTED;
    }

    /** True while the node is ejected as an outlier (until its ejection time is over). */
    public boolean outlierEjected(int node) {
        return !Double.isNaN(outlierUntil[node]) && ejected[node] != null;
    }

    /** Most nodes that may be masked at once. */
    public int cap() {
        return cap;
    }

    /**
     * Why the guardrails would mask the node now, or null: CPU above the threshold (from
     * {@code fresh} if given, else the newest load seen), offline (missed probes; or silence,
     * once the node has sent a report or heartbeat: an idle node in the probe model says
     * nothing and is not offline), stale report.
     *
     * @param node the node
     * @param fresh a load just read for a decision, or null
     * @param now current time, seconds
     */
    public String condition(int node, LoadSnapshot fresh, double now) {
        if (!Double.isNaN(outlierUntil[node]) && now < outlierUntil[node]) {
            return outlierReason[node];
        }
        if (!settings.enabled()) {
            return null;
        }
        LoadSnapshot s = fresh != null ? fresh : latest[node];
        if (s != null && s.available() && s.cpu() > settings.cpuMaskAbove()) {
            return String.format(Locale.ROOT, "cpu %.2f > %.2f", s.cpu(), settings.cpuMaskAbove());
        }
        int missed = missedProbes[node];
        if (settings.offlineAfterMissedProbes() > 0 && missed >= settings.offlineAfterMissedProbes()) {
            return "offline: " + missed + " probes unanswered";
        }
        if (reports[node] && settings.offlineAfter() > 0 && now - lastHeard[node] > settings.offlineAfter()) {
            return String.format(Locale.ROOT, "offline: silent for %.2f s", now - lastHeard[node]);
        }
        if (reports[node] && settings.staleAfter() > 0 && fresh == null && latest[node] != null
                && now - latest[node].sampledAt() > settings.staleAfter()) {
            return String.format(Locale.ROOT, "stale: last report %.2f s old", now - latest[node].sampledAt());
        }
        return null;
    }

    /**
     * Re-evaluates the node: masks it (if the cap allows) while a condition holds, restores
     * it once none does.
     *
     * @param node the node
     * @param fresh a load just read, or null
     * @param now current time, seconds
     * @return +1 if the node was just masked, −1 if it was just restored, 0 if nothing changed
     */
    public int update(int node, LoadSnapshot fresh, double now) {
        if (!active || gone(node)) {
            return 0;
        }
        if (!Double.isNaN(outlierUntil[node]) && now >= outlierUntil[node]) {
            outlierUntil[node] = Double.NaN; // the ejection time is over
            outlierReason[node] = null;
        }
        String why = condition(node, fresh, now);
        if (why != null) {
            if (ejected[node] != null) {
                ejected[node] = why;
                return 0;
            }
            if (ejectedCount < cap) {
                ejected[node] = why;
                ejectedCount++;
                return 1;
            }
            return 0;
        }
        if (ejected[node] != null) {
            ejected[node] = null;
            ejectedCount--;
            return -1;
        }
        return 0;
    }
}
