package org.loadlab.kernel.sim;

/**
 * The live timers of one entity beyond its first: key ↔ event id, both ways, in two
 * open-addressing tables (linear probing, backward-shift deletion). Starting or cancelling
 * a timer finds it by key ({@code equals}/{@code hashCode}, as Pekko's
 * {@code TimerScheduler} compares keys); a popped timer event is checked by its id alone,
 * so skipping a cancelled timer touches neither its key nor its message. Nothing is
 * allocated per timer (a {@code HashMap} allocates a node per put); the tables grow when
 * half full.
 */
final class TimerIndex {
    private static final long FREE = -1L; // event ids are non-negative

    private Object[] keyByKey = new Object[16];
    private long[] idByKey = new long[16];
    private long[] idById = new long[16];
    private Object[] keyById = new Object[16];
    private int size;

    TimerIndex() {
        java.util.Arrays.fill(idById, FREE);
    }

    /** Live timers held. */
    int size() {
        return size;
    }

    /** Records that the live timer of {@code key} has event id {@code id}; {@code key} must not be held. */
    void put(Object key, long id) {
        if ((size + 1) * 2 > keyByKey.length) {
            grow();
        }
        insert(key, id);
        size++;
    }

    /** Removes {@code key}'s timer; returns its event id, or -1 if it has none. */
    long removeKey(Object key) {
        if (size == 0) {
            return FREE;
        }
        int mask = keyByKey.length - 1;
        for (int i = keyIndex(key, mask); keyByKey[i] != null; i = (i + 1) & mask) {
            if (keyByKey[i] == key || keyByKey[i].equals(key)) {
                long id = idByKey[i];
                deleteKeyAt(i, mask);
                deleteIdAt(findId(id, mask), mask);
                size--;
                return id;
            }
        }
        return FREE;
    }

    /** Removes the timer with event id {@code id}; returns true if it was live. */
    boolean removeId(long id) {
        if (size == 0) {
            return false;
        }
        int mask = idById.length - 1;
        int i = findId(id, mask);
        if (i < 0) {
            return false;
        }
        Object key = keyById[i];
        deleteIdAt(i, mask);
        for (int k = keyIndex(key, mask); ; k = (k + 1) & mask) {
            if (keyByKey[k] == key) {
                deleteKeyAt(k, mask);
                break;
            }
        }
        size--;
        return true;
    }

    private int findId(long id, int mask) {
        for (int i = idIndex(id, mask); idById[i] != FREE; i = (i + 1) & mask) {
            if (idById[i] == id) {
                return i;
            }
        }
        return -1;
    }

    private void insert(Object key, long id) {
        int mask = keyByKey.length - 1;
        int i = keyIndex(key, mask);
        while (keyByKey[i] != null) {
            i = (i + 1) & mask;
        }
        keyByKey[i] = key;
        idByKey[i] = id;
        int j = idIndex(id, mask);
        while (idById[j] != FREE) {
            j = (j + 1) & mask;
        }
        idById[j] = id;
        keyById[j] = key;
    }

    /** Knuth's backward shift: moves later entries of the probe run into the hole. */
    private void deleteKeyAt(int hole, int mask) {
        int i = hole;
        while (true) {
            i = (i + 1) & mask;
            Object k = keyByKey[i];
            if (k == null) {
                break;
            }
            int home = keyIndex(k, mask);
            if (((i - home) & mask) >= ((i - hole) & mask)) {
                keyByKey[hole] = k;
                idByKey[hole] = idByKey[i];
                hole = i;
            }
        }
        keyByKey[hole] = null;
    }

    private void deleteIdAt(int hole, int mask) {
        int i = hole;
        while (true) {
            i = (i + 1) & mask;
            long id = idById[i];
            if (id == FREE) {
                break;
            }
            int home = idIndex(id, mask);
            if (((i - home) & mask) >= ((i - hole) & mask)) {
                idById[hole] = id;
                keyById[hole] = keyById[i];
                hole = i;
            }
        }
        idById[hole] = FREE;
        keyById[hole] = null;
    }

    private void grow() {
        Object[] oldKeys = keyByKey;
        long[] oldIds = idByKey;
        int capacity = oldKeys.length * 2;
        keyByKey = new Object[capacity];
        idByKey = new long[capacity];
        idById = new long[capacity];
        keyById = new Object[capacity];
        java.util.Arrays.fill(idById, FREE);
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != null) {
                insert(oldKeys[i], oldIds[i]);
            }
        }
    }

    private static int keyIndex(Object key, int mask) {
        int h = key.hashCode() * 0x9E3779B9; // Fibonacci hashing spreads sequential ids
        return (h ^ (h >>> 16)) & mask;
    }

    private static int idIndex(long id, int mask) {
        return (int) ((id * 0x9E3779B97F4A7C15L) >>> 32) & mask;
    }
}
