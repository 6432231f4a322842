package org.loadlab.node.sharing;

import java.util.random.RandomGenerator;

/**
 * Every peer of a node in a uniformly random order: the order of a broadcast
 * ({@link PeerNode#peersInRandomOrder}) and of the stable protocols' initial receiver list
 * ({@link StableLists#reset}). Fisher–Yates on the node's own stream, n − 2 draws, so the
 * same stream gives the same order.
 */
final class PeerOrder {
    private PeerOrder() {
    }

    /**
     * Fills {@code into} with every index in [0, n) except {@code self}, shuffled.
     *
     * @param into the array to fill, length n − 1 (its contents are overwritten)
     * @param self the node's own index
     * @param rng the node's random stream
     * @return {@code into}
     */
    static int[] shuffle(int[] into, int self, RandomGenerator rng) {
        for (int j = 0, k = 0; k < into.length; j++) {
            if (j != self) {
                into[k++] = j;
            }
        }
        for (int i = into.length - 1; i > 0; i--) {
            int r = rng.nextInt(i + 1);
            int t = into[i];
            into[i] = into[r];
            into[r] = t;
        }
        return into;
    }
}
