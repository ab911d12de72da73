package io.shardgate.replication.diff;

import io.shardgate.storage.checksum.ChecksumResult;
import io.shardgate.storage.checksum.PkRange;
import io.shardgate.storage.checksum.RowChecksum;
import io.shardgate.storage.checksum.TableChecksum;
import io.shardgate.storage.checksum.TableColumns;
import io.shardgate.storage.checksum.TableName;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/** A {@link ServerReader} over one snapshot connection, through the engine's checksum primitive. */
final class JdbcServerReader implements ServerReader {
    private final Connection connection;
    private final TableChecksum checksum;
    private final TableName table;
    private final TableColumns columns;

    JdbcServerReader(Connection connection, TableChecksum checksum, TableName table, TableColumns columns) {
        this.connection = requireNonNull(connection, "connection is null");
        this.checksum = requireNonNull(checksum, "checksum is null");
        this.table = requireNonNull(table, "table is null");
        this.columns = requireNonNull(columns, "columns is null");
    }

    @Override
    public ChecksumResult checksum(PkRange range) throws SQLException {
        return checksum.checksum(connection, table, columns, range);
    }

    @Override
    public Optional<List<Object>> keyAt(PkRange range, long offset) throws SQLException {
        return checksum.keyAt(connection, table, columns, range, offset);
    }

    @Override
    public Optional<List<Object>> lastKey() throws SQLException {
        return checksum.lastKey(connection, table, columns);
    }

    @Override
    public List<RowChecksum> rows(PkRange range) throws SQLException {
        List<RowChecksum> rows = new ArrayList<>();
        checksum.rowChecksums(connection, table, columns, range, rows::add);
        return rows;
    }

    @Override
    public void keyColumns(PkRange range, List<String> selected, Consumer<List<Object>> row) throws SQLException {
        checksum.keyColumns(connection, table, columns, range, selected, row);
    }
}
