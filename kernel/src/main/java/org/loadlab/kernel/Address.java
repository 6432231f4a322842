package org.loadlab.kernel;

/**
 * Logical address of a protocol participant. Messages carry addresses, never actor
 * references, so the same protocol core runs in the simulation engine (which maps an
 * address to an entity slot) and in the Pekko shells (which map it to an ActorRef).
 *
 * <p>Source: DESIGN.md, "Architecture: pure cores, two shells".
 */
public sealed interface Address extends CborSerializable permits NodeId, BalancerId, ClientId, ServiceId {
    /** Zero-based index of the participant within its kind (nodes, balancers or clients). */
    int index();
}
