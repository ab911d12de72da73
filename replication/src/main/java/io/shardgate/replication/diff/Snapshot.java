package io.shardgate.replication.diff;

import java.sql.SQLException;
import java.util.List;
import java.util.OptionalLong;

/** One matched set of snapshots as readers, with what the diff learnt of the table on the first set. */
interface Snapshot extends AutoCloseable {

    ServerReader source();

    /** In the diff's target order. */
    List<ServerReader> targets();

    /** Each target's readers over every connection in this snapshot ({@link MatchedSnapshots#targetLanes}), {@link #targets()}' first. */
    default List<List<ServerReader>> targetLanes() {
        return targets().stream().map(List::of).toList();
    }

    /** When this set was opened, if before it was handed to this diff ({@link MatchedSnapshots#openedNanos}). */
    default OptionalLong openedNanos() {
        return OptionalLong.empty();
    }

    KeyOrder keyOrder();

    /** The source's estimate of the table's rows (for the progress estimate only). */
    long estimatedRows();

    @Override
    void close() throws SQLException;
}
