package io.shardgate.storage.capability;

/**
 * MariaDB's {@code ALGORITHM=} values, from least to most work. A requested algorithm is the
 * least efficient one the server may use: {@code ALGORITHM=INPLACE} still runs an operation
 * that can be {@code INSTANT} instantly, while {@code ALGORITHM=COPY} always copies.
 */
public enum AlterAlgorithm {
    /** Metadata only. */
    INSTANT,
    /** In place without rebuilding the clustered index. */
    NOCOPY,
    /** In place, possibly rebuilding the table inside the engine. */
    INPLACE,
    /** A new table is built and the rows copied; writes are blocked throughout. */
    COPY;

    /** Whether this is at least as cheap as {@code other}. */
    public boolean atMost(AlterAlgorithm other) {
        return compareTo(other) <= 0;
    }

    public static AlterAlgorithm max(AlterAlgorithm a, AlterAlgorithm b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
