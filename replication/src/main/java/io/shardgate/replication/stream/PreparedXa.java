package io.shardgate.replication.stream;

import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The XA transactions a stream read the PREPARE of and not yet the end, with their rows, by XA id. One per
 * {@link BinlogReader}, shared by the {@link TransactionAssembler} of each of its connections: a connection that drops
 * between an XA PREPARE and its COMMIT reads on after the PREPARE, so the next connection must still know its rows.
 * Used by the reader's thread only.
 */
final class PreparedXa {
    record Prepared(MariaDbGtid gtid, List<Change> changes) {
    }

    private final Map<XaId, Prepared> byId = new HashMap<>();
    /** Transactions up to here are in the snapshot the stream goes on from ({@link io.shardgate.replication.gtid.SnapshotPoint}). */
    private MariaDbGtidPosition snapshot = MariaDbGtidPosition.empty();

    /** The stream goes on from a snapshot at {@code position}, reading from before it. */
    void snapshot(MariaDbGtidPosition position) {
        this.snapshot = position;
    }

    /**
     * Whether an XA end at {@code gtid} whose PREPARE this stream never read may be passed over: the snapshot the stream
     * goes on from already has its outcome (its PREPARE lies before where the stream reads, its end not after the
     * snapshot).
     */
    boolean inSnapshot(MariaDbGtid gtid) {
        MariaDbGtid through = snapshot.byDomain().get(gtid.domain());
        return through != null && through.sequence() >= gtid.sequence();
    }

    /** Keeps {@code prepared} under {@code id}; false when that id is already prepared. */
    boolean put(XaId id, Prepared prepared) {
        return byId.putIfAbsent(id, prepared) == null;
    }

    /** The prepared transaction {@code id}, taken out; null when this stream never read its PREPARE. */
    Prepared take(XaId id) {
        return byId.remove(id);
    }
}
