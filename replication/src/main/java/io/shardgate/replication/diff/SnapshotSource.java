package io.shardgate.replication.diff;

import java.sql.SQLException;

/** Opens matched snapshots as readers: {@link JdbcSnapshots} over {@link DiffPoints}, or a fake in tests. */
@FunctionalInterface
interface SnapshotSource {

    Snapshot open() throws SQLException;
}
