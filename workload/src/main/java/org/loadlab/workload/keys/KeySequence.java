package org.loadlab.workload.keys;

/**
 * The affinity keys of a run's requests (users, sessions, objects) that the hashing policies
 * map to nodes, one per arrival, from the keys' own random stream.
 *
 * <p>Source: issue 14 ("a synthetic key with a Zipf popularity").
 */
public interface KeySequence {
    /** No keys: every request carries {@code NO_KEY}. */
    KeySequence NONE = () -> -1;

    /** The next request's key, ≥ 0, or −1 for none. */
    long next();
}
