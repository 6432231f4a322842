package org.loadlab.node.protocol;

import org.loadlab.kernel.CborSerializable;

/**
 * What a node tells about itself at one instant: the body of a {@code ProbeReply} and a
 * {@code LoadReport}, and what the oracle view returns.
 *
 * @param node index of the reporting node
 * @param queueLength q_j: requests waiting plus in service
 * @param inService requests currently in service (≤ servers)
 * @param serviceRate μ_j in work units per second (0 when failed)
 * @param cpu CPU utilisation in [0,1]
 * @param mem memory utilisation in [0,1]
 * @param io IO utilisation in [0,1]
 * @param net network utilisation in [0,1]
 * @param correction ASMF feedback correction C_j (1 when the node keeps none)
 * @param sampledAt time the snapshot was taken, seconds
 * @param available false if the node has failed (it would not answer a probe)
 * @param latencyEstimate the node's own estimate of the response time a request arriving now
 *     would see, seconds: (q_j / c + 1) × its recent mean service time (NaN when the sender
 *     keeps none); Prequal's probes carry such an estimate next to the requests in flight
 *     <p>Source: SPEC.md §1 (probe reply contents) and seed 000 (resource state); Wydrowski et
 *     al., "Load is not what you should balance: Introducing Prequal", NSDI 2024 (latency in probes).
 */
public record LoadSnapshot(int node, int queueLength, int inService, double serviceRate,
                           double cpu, double mem, double io, double net,
                           double correction, double sampledAt,
                           boolean available, double latencyEstimate) implements CborSerializable {
    /** A snapshot without a latency estimate. */
    public LoadSnapshot(int node, int queueLength, int inService, double serviceRate, double cpu, double mem, double io,
                        double net, double correction, double sampledAt, boolean available) {
        this(node, queueLength, inService, serviceRate, cpu, mem, io, net, correction, sampledAt, available, Double.NaN);
    }
}
