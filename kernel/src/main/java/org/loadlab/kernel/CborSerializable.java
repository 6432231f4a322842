package org.loadlab.kernel;

/**
 * Marker for every message that may cross a JVM boundary. The Pekko shells bind this
 * interface to Jackson CBOR in {@code reference.conf}; the pure cores only implement it.
 *
 * <p>Source: DESIGN.md, "Conventions" (one CborSerializable marker bound to Jackson CBOR).
 */
public interface CborSerializable {
}
