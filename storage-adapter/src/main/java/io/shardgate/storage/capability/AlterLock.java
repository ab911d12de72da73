package io.shardgate.storage.capability;

/** MariaDB's {@code LOCK=} values, from least to most blocking. */
public enum AlterLock {
    /** Reads and writes continue during the operation. */
    NONE,
    /** Reads continue, writes wait. */
    SHARED,
    /** Reads and writes wait. */
    EXCLUSIVE;

    public static AlterLock max(AlterLock a, AlterLock b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
