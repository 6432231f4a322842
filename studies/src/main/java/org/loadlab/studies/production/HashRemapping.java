package org.loadlab.studies.production;

import java.util.ArrayList;
import java.util.List;
import org.loadlab.balancer.policy.HashRing;
import org.loadlab.balancer.policy.KeyHash;
import org.loadlab.balancer.policy.MaglevTable;

/**
 * {@code hash-remapping}: the affinity policies' structures against consistent-hashing
 * theory, without a simulation. For n nodes and 200,000 keys: the share of keys that move
 * when one node leaves (averaged over which node; theory 1/n, maglev a little more) and the
 * largest node's share of the keys × n (1 is a perfect spread).
 *
 * <p>Source: Karger et al. (STOC 1997); Eisenbud et al. (NSDI 2016).
 */
public final class HashRemapping {
    /** Keys hashed. */
    public static final int KEYS = 200_000;

    private HashRemapping() {
    }

    /** The table for {@code sizes} nodes, Envoy's default sizes (ring 1024, maglev 65537). */
    public static StudyTable table(List<Integer> sizes) {
        List<List<String>> rows = new ArrayList<>();
        for (int n : sizes) {
            int[] all = new int[n];
            for (int j = 0; j < n; j++) {
                all[j] = j;
            }
            HashRing ring = new HashRing(all, 1024, n);
            MaglevTable table = new MaglevTable(all, 65537);
            int[] onRing = new int[n];
            int[] onTable = new int[n];
            for (long k = 0; k < KEYS; k++) {
                long h = KeyHash.ofKey(k);
                onRing[ring.node(h)]++;
                onTable[table.node(h)]++;
            }
            double ringMoved = 0;
            double tableMoved = 0;
            for (int gone = 0; gone < n; gone++) {
                int[] left = new int[n - 1];
                int i = 0;
                for (int j = 0; j < n; j++) {
                    if (j != gone) {
                        left[i++] = j;
                    }
                }
                HashRing r2 = new HashRing(left, 1024, n);
                MaglevTable t2 = new MaglevTable(left, 65537);
                int rm = 0;
                int tm = 0;
                for (long k = 0; k < KEYS; k++) {
                    long h = KeyHash.ofKey(k);
                    rm += ring.node(h) != r2.node(h) ? 1 : 0;
                    tm += table.node(h) != t2.node(h) ? 1 : 0;
                }
                ringMoved += (double) rm / KEYS / n;
                tableMoved += (double) tm / KEYS / n;
            }
            rows.add(List.of(String.valueOf(n), StudyTable.num(1.0 / n, 4), StudyTable.num(ringMoved, 4),
                    StudyTable.num(tableMoved, 4), StudyTable.num(max(onRing) * (double) n / KEYS, 2),
                    StudyTable.num(max(onTable) * (double) n / KEYS, 3)));
        }
        return new StudyTable("Hash remapping: keys moved when one of n nodes leaves (mean over which node), and the"
                + " spread (ring 1024 points, maglev 65537 slots, 200,000 keys)", List.of("n", "theory 1/n",
                "ring-hash moved", "maglev moved", "ring largest share x n", "maglev largest share x n"), rows);
    }

    private static int max(int[] a) {
        int m = 0;
        for (int v : a) {
            m = Math.max(m, v);
        }
        return m;
    }
}
