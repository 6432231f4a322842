package org.loadlab.kernel.sim;

/**
 * The live timers of one entity by key ({@code equals}/{@code hashCode} of the key, as
 * Pekko's {@code TimerScheduler} compares keys): an open-addressing table with linear
 * probing and backward-shift deletion, so putting and removing a key allocates nothing
 * (a {@code HashMap} allocates a node per put). Grows when half full.
 *
 * @param <V> the timer type
 */
final class TimerTable<V> {
    private Object[] keys = new Object[16];
    private Object[] values = new Object[16];
    private int size;

    /** The value of {@code key}, or null. */
    @SuppressWarnings("unchecked")
    V get(Object key) {
        int mask = keys.length - 1;
        for (int i = index(key, mask); keys[i] != null; i = (i + 1) & mask) {
            if (keys[i] == key || keys[i].equals(key)) {
                return (V) values[i];
            }
        }
        return null;
    }

    /** Maps {@code key} to {@code value}; returns the value it replaced, or null. */
    @SuppressWarnings("unchecked")
    V put(Object key, V value) {
        int mask = keys.length - 1;
        int i = index(key, mask);
        for (; keys[i] != null; i = (i + 1) & mask) {
            if (keys[i] == key || keys[i].equals(key)) {
                V old = (V) values[i];
                values[i] = value;
                return old;
            }
        }
        keys[i] = key;
        values[i] = value;
        if (++size * 2 > keys.length) {
            grow();
        }
        return null;
    }

    /** Removes {@code key}; returns its value, or null. */
    V remove(Object key) {
        int mask = keys.length - 1;
        for (int i = index(key, mask); keys[i] != null; i = (i + 1) & mask) {
            if (keys[i] == key || keys[i].equals(key)) {
                @SuppressWarnings("unchecked")
                V old = (V) values[i];
                delete(i, mask);
                return old;
            }
        }
        return null;
    }

    /** Removes {@code key} only while it maps to {@code value} (identity). */
    void remove(Object key, V value) {
        int mask = keys.length - 1;
        for (int i = index(key, mask); keys[i] != null; i = (i + 1) & mask) {
            if (keys[i] == key || keys[i].equals(key)) {
                if (values[i] == value) {
                    delete(i, mask);
                }
                return;
            }
        }
    }

    int size() {
        return size;
    }

    /** Knuth's backward shift: moves later entries of the probe run into the hole. */
    private void delete(int hole, int mask) {
        size--;
        int i = hole;
        while (true) {
            i = (i + 1) & mask;
            Object k = keys[i];
            if (k == null) {
                break;
            }
            int home = index(k, mask);
            // k may fill the hole if its home is not in (hole, i] cyclically
            if (((i - home) & mask) >= ((i - hole) & mask)) {
                keys[hole] = k;
                values[hole] = values[i];
                hole = i;
            }
        }
        keys[hole] = null;
        values[hole] = null;
    }

    private void grow() {
        Object[] oldKeys = keys;
        Object[] oldValues = values;
        keys = new Object[oldKeys.length * 2];
        values = new Object[oldKeys.length * 2];
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldKeys[j] != null) {
                int i = index(oldKeys[j], mask);
                while (keys[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[j];
                values[i] = oldValues[j];
            }
        }
    }

    private static int index(Object key, int mask) {
        int h = key.hashCode() * 0x9E3779B9; // Fibonacci hashing spreads sequential ids
        return (h ^ (h >>> 16)) & mask;
    }
}
