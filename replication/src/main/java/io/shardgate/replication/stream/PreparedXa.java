package io.shardgate.replication.stream;

import io.shardgate.replication.gtid.MariaDbGtid;

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

    /** Keeps {@code prepared} under {@code id}; false when that id is already prepared. */
    boolean put(XaId id, Prepared prepared) {
        return byId.putIfAbsent(id, prepared) == null;
    }

    /** The prepared transaction {@code id}, taken out; null when this stream never read its PREPARE. */
    Prepared take(XaId id) {
        return byId.remove(id);
    }
}
