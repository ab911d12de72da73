package io.shardgate.replication.gtid;

import static java.util.Objects.requireNonNull;

/**
 * Where a consistent snapshot of a source stands, and where a change stream that carries on from it reads from.
 *
 * <p>An XA transaction that was prepared and not yet ended when the snapshot was taken is not in it: its XA PREPARE
 * lies at or before {@code position}, its XA COMMIT after. A stream that read only what follows {@code position}
 * would meet a commit whose rows it never read. So it reads from {@code lookback}, at or before {@code position} and
 * before the PREPARE of every such transaction, and skips every transaction up to {@code position} (the snapshot has
 * them) except to keep the rows of those prepares until their commits.
 *
 * @param position every source transaction up to here is in the snapshot, none after
 * @param lookback where a stream going on from the snapshot starts reading; equal to {@code position} where no XA
 *                 transaction was in flight
 */
public record SnapshotPoint(MariaDbGtidPosition position, MariaDbGtidPosition lookback) {
    public SnapshotPoint {
        requireNonNull(position, "position is null");
        requireNonNull(lookback, "lookback is null");
        if (!position.hasReached(lookback)) {
            throw new IllegalArgumentException("a snapshot's lookback " + lookback + " lies after its position " + position);
        }
    }

    /** A snapshot with no XA transaction in flight (or a position where writes were held): read from it. */
    public static SnapshotPoint at(MariaDbGtidPosition position) {
        return new SnapshotPoint(position, position);
    }

    /** {@code position}, and {@code lookback} unless it is null or empty (older checkpoints kept only the position). */
    public static SnapshotPoint of(MariaDbGtidPosition position, MariaDbGtidPosition lookback) {
        return lookback == null || lookback.isEmpty() ? at(position) : new SnapshotPoint(position, lookback);
    }

    public boolean isEmpty() {
        return position.isEmpty();
    }

    @Override
    public String toString() {
        return lookback.equals(position) ? position.toString() : position + " (reading from " + lookback + ")";
    }
}
