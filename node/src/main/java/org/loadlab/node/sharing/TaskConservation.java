package org.loadlab.node.sharing;

import java.util.Locale;

/**
 * The end-of-run check that no task was lost or duplicated without being counted:
 * arrived = completed + rejected + lost + in system, where "in system" is counted
 * independently from the nodes (queued or in service) and the network (tasks in transit).
 * Both shells call it when a run ends; a violation is a bug in a protocol core or a shell.
 *
 * <p>Source: issue 6 (safety: no task lost or duplicated by a transfer).
 */
public final class TaskConservation {
    private TaskConservation() {
    }

    /**
     * Checks a load-sharing run exactly: the tasks the recorder has not resolved must be the
     * tasks queued at the nodes plus the tasks in transit between them.
     *
     * @param run label for the message, e.g. "load-sharing / receiver / seed 101"
     * @param arrived tasks that arrived (recorder)
     * @param completed tasks completed (recorder)
     * @param rejected tasks rejected (recorder; 0 in load sharing)
     * @param lost tasks lost (recorder)
     * @param nodes every node of the run
     * @throws IllegalStateException naming every count if the books do not balance
     */
    public static void checkPeers(String run, long arrived, long completed, long rejected, long lost, PeerNode[] nodes) {
        long queued = 0;
        long out = 0;
        long in = 0;
        long nodeArrivals = 0;
        long nodeCompletions = 0;
        long nodeLost = 0;
        for (PeerNode p : nodes) {
            queued += p.queueLength();
            out += p.transfersOut();
            in += p.transfersIn();
            nodeArrivals += p.arrivals();
            nodeCompletions += p.completions();
            nodeLost += p.lostTasks();
        }
        long inTransit = out - in;
        boolean ok = inTransit >= 0 && arrived == completed + rejected + lost + queued + inTransit
                && nodeArrivals == arrived && nodeCompletions == completed && nodeLost == lost;
        if (!ok) {
            throw new IllegalStateException(String.format(Locale.ROOT,
                    "task conservation violated in run %s: arrived %d != completed %d + rejected %d + lost %d"
                            + " + queued at nodes %d + in transit %d (sent %d, received %d); the nodes count"
                            + " %d arrived, %d completed, %d lost",
                    run, arrived, completed, rejected, lost, queued, inTransit, out, in, nodeArrivals, nodeCompletions, nodeLost));
        }
    }

    /**
     * Checks a balancer run: requests queued at the nodes can only be requests that arrived
     * and are neither completed, rejected nor lost (the rest are in transit or at a balancer).
     *
     * @param run label for the message
     * @param arrived requests that arrived (recorder)
     * @param completed requests completed (recorder)
     * @param rejected requests rejected (recorder)
     * @param lost requests lost (recorder)
     * @param queuedAtNodes Σ q_j over the backend nodes at the end of the run
     * @throws IllegalStateException naming every count if the books do not balance
     */
    public static void checkBalanced(String run, long arrived, long completed, long rejected, long lost, long queuedAtNodes) {
        long inSystem = arrived - completed - rejected - lost;
        if (inSystem < 0 || queuedAtNodes < 0 || queuedAtNodes > inSystem) {
            throw new IllegalStateException(String.format(Locale.ROOT,
                    "request conservation violated in run %s: arrived %d - completed %d - rejected %d - lost %d = %d"
                            + " in system, but the nodes hold %d",
                    run, arrived, completed, rejected, lost, inSystem, queuedAtNodes));
        }
    }
}
