package io.shardgate.replication.diff;

import java.sql.SQLException;
import java.util.List;

/** One matched set of snapshots as readers, with what the diff learnt of the table on the first set. */
interface Snapshot extends AutoCloseable {

    ServerReader source();

    /** In the diff's target order. */
    List<ServerReader> targets();

    KeyOrder keyOrder();

    /** The source's estimate of the table's rows (for the progress estimate only). */
    long estimatedRows();

    @Override
    void close() throws SQLException;
}
