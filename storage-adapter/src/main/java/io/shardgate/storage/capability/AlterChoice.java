package io.shardgate.storage.capability;

import static java.util.Objects.requireNonNull;

/** One {@code ALGORITHM=…, LOCK=…} pair. */
public record AlterChoice(AlterAlgorithm algorithm, AlterLock lock) {
    public AlterChoice {
        requireNonNull(algorithm, "algorithm is null");
        requireNonNull(lock, "lock is null");
    }

    public static AlterChoice of(AlterAlgorithm algorithm, AlterLock lock) {
        return new AlterChoice(algorithm, lock);
    }

    /**
     * Whether writes to the table wait for the whole operation: any {@code COPY}, and any lock
     * other than {@code NONE} unless the operation is {@code INSTANT} (a metadata change, such
     * as a rename, holds its lock only for a moment).
     */
    public boolean blocksWrites() {
        return algorithm == AlterAlgorithm.COPY || (lock != AlterLock.NONE && algorithm != AlterAlgorithm.INSTANT);
    }

    @Override
    public String toString() {
        return "ALGORITHM=" + algorithm + ", LOCK=" + lock;
    }
}
