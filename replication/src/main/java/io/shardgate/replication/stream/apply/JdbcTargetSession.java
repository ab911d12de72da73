package io.shardgate.replication.stream.apply;

import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.stream.Change;
import io.shardgate.replication.stream.Column;
import io.shardgate.replication.stream.DdlChange;
import io.shardgate.replication.stream.RowChange;
import io.shardgate.replication.stream.ServerEndpoint;
import io.shardgate.replication.stream.Transaction;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import java.sql.Statement;
import java.sql.Types;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One JDBC connection to the target. Rows are applied by primary key with prepared statements
 * (cached per SQL text); an insert must insert one row, an update or delete must find one,
 * otherwise the batch stops with the GTID, table and key. The session runs with
 * {@code time_zone='+00:00'} (TIMESTAMP values arrive in UTC) and {@code NO_AUTO_VALUE_ON_ZERO}
 * (a 0 in an AUTO_INCREMENT column is a value, as on the source).
 */
final class JdbcTargetSession implements TargetSession {
    /** Errors a second run of a DDL gives when the first run happened before a crash. */
    private static final Set<Integer> ALREADY_APPLIED_DDL = Set.of(1007, 1008, 1050, 1051, 1060, 1061, 1091, 1146, 1054);
    private static final Set<Integer> RETRYABLE = Set.of(1205, 1213, 2006, 2013);

    private final ServerEndpoint server;
    private final AtomicBoolean firstDdlDone;
    private final Connection connection;
    private final Map<String, PreparedStatement> statements = new LinkedHashMap<>();
    private PreparedStatement positionStatement;

    JdbcTargetSession(ServerEndpoint server, AtomicBoolean firstDdlDone) throws SQLException {
        this.server = server;
        this.firstDdlDone = firstDdlDone;
        this.connection = server.connect();
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET SESSION time_zone = '+00:00'");
            statement.execute("SET SESSION sql_mode = 'NO_AUTO_VALUE_ON_ZERO,STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION'");
        }
        connection.setAutoCommit(false);
    }

    @Override
    public void apply(List<Transaction> batch) {
        if (batch.size() == 1 && batch.get(0).hasDdl()) {
            applyDdl(batch.get(0));
            return;
        }
        Transaction current = null;
        RowChange row = null;
        try {
            Map<String, MariaDbGtidPosition> positions = new TreeMap<>();
            for (Transaction transaction : batch) {
                current = transaction;
                for (Change change : transaction.changes()) {
                    row = (RowChange) change;
                    applyRow(row);
                }
                row = null;
                for (String schema : transaction.schemas()) {
                    positions.merge(schema, MariaDbGtidPosition.empty().with(transaction.gtid()),
                            (a, b) -> a.with(transaction.gtid()));
                }
            }
            current = null;
            savePositions(positions);
            connection.commit();
        } catch (SQLException e) {
            rollback();
            throw failure(current, row, e);
        } catch (RuntimeException e) {
            rollback();
            throw e;
        }
    }

    private void applyRow(RowChange row) throws SQLException {
        String sql = RowStatements.sql(row);
        PreparedStatement statement = statements.get(sql);
        if (statement == null) {
            statement = connection.prepareStatement(sql);
            statements.put(sql, statement);
        }
        int index = 1;
        if (row.after() != null) {
            List<Column> columns = row.table().columns();
            for (int i = 0; i < columns.size(); i++) {
                if (!columns.get(i).generated()) {
                    bind(statement, index++, row.after()[i]);
                }
            }
        }
        if (row.before() != null) {
            for (int key : row.table().keyColumns()) {
                bind(statement, index++, row.before()[key]);
            }
        }
        int count = statement.executeUpdate();
        if (count != 1) {
            throw new SQLException(row.kind() == RowChange.Kind.INSERT ? "inserted " + count + " rows"
                    : "row not found on the target (" + count + " rows matched)", "HY000", 0);
        }
    }

    static void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.NULL);
        } else if (value instanceof byte[] bytes) {
            statement.setBytes(index, bytes);
        } else if (value instanceof BigInteger big) {
            statement.setBigDecimal(index, new BigDecimal(big));
        } else if (value instanceof BigDecimal decimal) {
            statement.setBigDecimal(index, decimal);
        } else if (value instanceof Long number) {
            statement.setLong(index, number);
        } else if (value instanceof Integer number) {
            statement.setInt(index, number);
        } else if (value instanceof Float number) {
            statement.setFloat(index, number);
        } else if (value instanceof Double number) {
            statement.setDouble(index, number);
        } else if (value instanceof String text) {
            statement.setString(index, text);
        } else {
            statement.setObject(index, value);
        }
    }

    private void applyDdl(Transaction transaction) {
        for (Change change : transaction.changes()) {
            if (change instanceof DdlChange ddl) {
                boolean tolerant = !firstDdlDone.getAndSet(true);
                try (Connection ddlConnection = server.connect(); Statement statement = ddlConnection.createStatement()) {
                    statement.execute("SET SESSION time_zone = '+00:00'");
                    if (!ddl.defaultSchema().isEmpty()) {
                        try {
                            statement.execute("USE " + RowStatements.quote(ddl.defaultSchema()));
                        } catch (SQLException e) {
                            // CREATE DATABASE x is logged with x as its default database, which does not exist yet.
                            if (e.getErrorCode() != 1049) {
                                throw e;
                            }
                        }
                    }
                    statement.execute(ddl.sql());
                } catch (SQLException e) {
                    if (!(tolerant && ALREADY_APPLIED_DDL.contains(e.getErrorCode()))) {
                        throw new ApplyException("transaction " + transaction.gtid() + ": DDL failed on target "
                                + server.address() + ": " + e.getMessage() + " [" + abbreviate(ddl.sql()) + "]",
                                isRetryable(e), e);
                    }
                }
            } else {
                throw new ApplyException("transaction " + transaction.gtid() + " mixes DDL with rows ("
                        + change + "); the change stream cannot apply it atomically", false, null);
            }
        }
        try {
            Map<String, MariaDbGtidPosition> positions = new TreeMap<>();
            for (String schema : transaction.schemas()) {
                positions.put(schema, MariaDbGtidPosition.empty().with(transaction.gtid()));
            }
            savePositions(positions);
            connection.commit();
        } catch (SQLException e) {
            rollback();
            throw failure(transaction, null, e);
        }
    }

    private void savePositions(Map<String, MariaDbGtidPosition> positions) throws SQLException {
        if (positions.isEmpty()) {
            return;
        }
        if (positionStatement == null) {
            positionStatement = connection.prepareStatement("INSERT INTO " + JdbcApplyTarget.TABLE
                    + " (schema_name, domain_id, server_id, seq) VALUES (?, ?, ?, ?)"
                    + " ON DUPLICATE KEY UPDATE server_id = VALUES(server_id), seq = VALUES(seq)");
        }
        for (Map.Entry<String, MariaDbGtidPosition> entry : positions.entrySet()) {
            for (MariaDbGtid gtid : entry.getValue().byDomain().values()) {
                positionStatement.setString(1, entry.getKey());
                positionStatement.setLong(2, gtid.domain());
                positionStatement.setLong(3, gtid.server());
                positionStatement.setLong(4, gtid.sequence());
                positionStatement.addBatch();
            }
        }
        positionStatement.executeBatch();
    }

    @Override
    public void saveWatermark(MariaDbGtidPosition watermark) {
        try {
            savePositions(Map.of(JdbcApplyTarget.WATERMARK, watermark));
            connection.commit();
        } catch (SQLException e) {
            rollback();
            throw new ApplyException("cannot save the watermark " + watermark + " on target " + server.address() + ": "
                    + e.getMessage(), isRetryable(e), e);
        }
    }

    private ApplyException failure(Transaction transaction, RowChange row, SQLException e) {
        StringBuilder message = new StringBuilder();
        if (transaction != null) {
            message.append("transaction ").append(transaction.gtid());
        } else {
            message.append("saving positions");
        }
        if (row != null) {
            message.append(": ").append(row.kind()).append(" into ").append(row.table().qualifiedName())
                    .append(" key ").append(row.describeKey());
        }
        message.append(" failed on target ").append(server.address()).append(": ").append(e.getMessage());
        return new ApplyException(message.toString(), isRetryable(e), e);
    }

    private static boolean isRetryable(SQLException e) {
        return RETRYABLE.contains(e.getErrorCode()) || e instanceof SQLTransientException
                || (e.getSQLState() != null && e.getSQLState().startsWith("08"));
    }

    private void rollback() {
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // The connection is broken; the caller reopens the session.
        }
    }

    private static String abbreviate(String sql) {
        return sql.length() <= 100 ? sql : sql.substring(0, 97) + "...";
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // Already broken.
        }
    }
}
