package org.loadlab.node.sharing;

import org.loadlab.kernel.CborSerializable;

/**
 * A task of a load-sharing run: what travels in a {@link SharingMessage.Transfer}.
 *
 * @param id task id, unique within a run (the workload driver's request id)
 * @param demand service demand D, work units (service time D/μ_j at the node that runs it)
 * @param arrivalTime when the task arrived at its first node, seconds; response time is
 *     measured from here to its completion wherever it runs
 * @param origin index of the node the task first arrived at
 * @param transfers how many times it has been transferred so far (≤ max-transfers)
 *     <p>Source: SPEC.md §7.
 */
public record Task(long id, double demand, double arrivalTime, int origin, int transfers) implements CborSerializable {

    /** This task after one more transfer. */
    public Task transferred() {
        return new Task(id, demand, arrivalTime, origin, transfers + 1);
    }
}
