package org.loadlab.balancer.policy;

/**
 * The 64-bit hashes of the affinity policies: MurmurHash3's fmix64 finaliser, a bijection
 * on 64-bit values with full avalanche, so consecutive keys and node indices spread evenly.
 *
 * <p>Source: Appleby, MurmurHash3 ({@code fmix64}).
 */
public final class KeyHash {
    private KeyHash() {
    }

    /** fmix64 of {@code x}. */
    public static long mix(long x) {
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        x ^= x >>> 33;
        return x;
    }

    /** The hash of a request key. */
    public static long ofKey(long key) {
        return mix(key ^ 0x6a09e667f3bcc909L);
    }

    /** The hash of one of node {@code node}'s points ({@code salt} tells the points apart). */
    public static long ofNode(int node, long salt) {
        return mix(mix(node + 0x243f6a8885a308d3L) ^ salt * 0x9E3779B97F4A7C15L);
    }
}
