package io.shardgate.replication.diff;

import io.shardgate.storage.checksum.ChecksumResult;
import io.shardgate.storage.checksum.PkRange;
import io.shardgate.storage.checksum.RowChecksum;

import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/** What a diff reads from one server's snapshot of the table; JDBC in production, in memory in tests. */
interface ServerReader {

    /** Count and XOR of CRCs of the rows in {@code range}. */
    ChecksumResult checksum(PkRange range) throws SQLException;

    /** The key {@code offset} rows into {@code range} in key order, or empty when the range is shorter. */
    Optional<List<Object>> keyAt(PkRange range, long offset) throws SQLException;

    /** The greatest key, or empty when the table has no rows. */
    Optional<List<Object>> lastKey() throws SQLException;

    /** Every row of {@code range} in key order, with its CRC; called only on ranges of a bounded size. */
    List<RowChecksum> rows(PkRange range) throws SQLException;

    /** The key then the {@code columns} values of each row of {@code range}, in key order. */
    void keyColumns(PkRange range, List<String> columns, Consumer<List<Object>> row) throws SQLException;
}
