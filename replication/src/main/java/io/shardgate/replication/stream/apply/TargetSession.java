package io.shardgate.replication.stream.apply;

import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.stream.Transaction;

import java.util.List;

/** One connection to the target. Not thread-safe: each worker owns one. */
public interface TargetSession extends AutoCloseable {
    /**
     * Applies {@code batch} in source order and records, for every schema it touches, the last
     * GTID applied, all in one target transaction. A batch holding DDL has exactly one
     * transaction; its DDL commits on its own (MariaDB DDL is not transactional) and its position
     * is recorded right after.
     *
     * @throws ApplyException naming the transaction, table and key of a row that cannot be applied
     */
    void apply(List<Transaction> batch);

    /** Records the stream-wide resume point. */
    void saveWatermark(MariaDbGtidPosition watermark);

    @Override
    void close();
}
