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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One JDBC connection to the target. Rows are applied by primary key; an insert must insert one
 * row, an update or delete must find one, otherwise the batch stops with the GTID, table and key.
 *
 * <p>A batch travels as few multi-statement scripts (client-side prepared, so Connector/J
 * escapes the values; up to {@value #MAX_SCRIPT_STATEMENTS} statements or about
 * {@value #MAX_SCRIPT_BYTES} bytes each), the last one ending with the positions' upsert: one
 * round trip per script plus the commit, instead of one per row. Each statement's update count is
 * checked. When a script fails with an SQL error, the batch is rolled back and applied again one
 * statement per row, so the error names its row. The session runs with
 * {@code time_zone='+00:00'} (TIMESTAMP values arrive in UTC) and {@code NO_AUTO_VALUE_ON_ZERO}
 * (a 0 in an AUTO_INCREMENT column is a value, as on the source).
 */
final class JdbcTargetSession implements TargetSession {
    /** Errors a second run of a DDL gives when the first run happened before a crash. */
    private static final Set<Integer> ALREADY_APPLIED_DDL = Set.of(1007, 1008, 1050, 1051, 1060, 1061, 1091, 1146, 1054);
    private static final Set<Integer> RETRYABLE = Set.of(1205, 1213, 2006, 2013);
    static final int MAX_SCRIPT_STATEMENTS = 500;
    static final int MAX_SCRIPT_BYTES = 1 << 20;
    private static final String POSITION_UPSERT = "INSERT INTO " + JdbcApplyTarget.TABLE
            + " (schema_name, domain_id, server_id, seq) VALUES ";
    private static final String POSITION_UPDATE = " ON DUPLICATE KEY UPDATE server_id = VALUES(server_id), seq = VALUES(seq)";

    private final ServerEndpoint server;
    private final AtomicBoolean firstDdlDone;
    private final Connection connection;
    private final Map<String, PreparedStatement> statements = new LinkedHashMap<>();
    private PreparedStatement positionStatement;

    JdbcTargetSession(ServerEndpoint server, AtomicBoolean firstDdlDone) throws SQLException {
        this.server = server;
        this.firstDdlDone = firstDdlDone;
        this.connection = server.connect("allowMultiQueries=true&useServerPrepStmts=false");
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
        try {
            applyScripts(batch);
            connection.commit();
            return;
        } catch (SQLException e) {
            rollback();
            if (isRetryable(e)) {
                throw new ApplyException("transactions " + batch.get(0).gtid() + " to " + batch.get(batch.size() - 1).gtid()
                        + " failed on target " + server.address() + ": " + e.getMessage(), true, e);
            }
            // Apply again one statement per row: the error then names its transaction and row.
        } catch (RuntimeException e) {
            rollback();
            throw e;
        }
        applyRowByRow(batch);
    }

    /** The rows of {@code batch} as scripts, the positions at the end of the last one. */
    private void applyScripts(List<Transaction> batch) throws SQLException {
        List<RowChange> rows = new ArrayList<>();
        List<Transaction> owners = new ArrayList<>();
        for (Transaction transaction : batch) {
            for (Change change : transaction.changes()) {
                rows.add((RowChange) change);
                owners.add(transaction);
            }
        }
        Map<String, MariaDbGtidPosition> positions = positions(batch);
        int start = 0;
        do {
            int end = start;
            long bytes = 0;
            while (end < rows.size() && end - start < MAX_SCRIPT_STATEMENTS) {
                long size = estimatedBytes(rows.get(end));
                if (end > start && bytes + size > MAX_SCRIPT_BYTES) {
                    break;
                }
                bytes += size;
                end++;
            }
            runScript(rows.subList(start, end), owners.subList(start, end),
                    end == rows.size() ? positions : Map.of());
            start = end;
        } while (start < rows.size());
    }

    private void runScript(List<RowChange> rows, List<Transaction> owners, Map<String, MariaDbGtidPosition> positions)
            throws SQLException {
        StringBuilder sql = new StringBuilder();
        for (RowChange row : rows) {
            sql.append(sql.isEmpty() ? "" : ";\n").append(RowStatements.sql(row));
        }
        int positionRows = 0;
        for (MariaDbGtidPosition position : positions.values()) {
            positionRows += position.byDomain().size();
        }
        if (positionRows > 0) {
            sql.append(sql.isEmpty() ? "" : ";\n").append(POSITION_UPSERT);
            for (int i = 0; i < positionRows; i++) {
                sql.append(i == 0 ? "(?, ?, ?, ?)" : ", (?, ?, ?, ?)");
            }
            sql.append(POSITION_UPDATE);
        }
        if (sql.isEmpty()) {
            return;
        }
        try (PreparedStatement script = connection.prepareStatement(sql.toString())) {
            int index = 1;
            for (RowChange row : rows) {
                index = bindRow(script, index, row);
            }
            for (Map.Entry<String, MariaDbGtidPosition> entry : positions.entrySet()) {
                for (MariaDbGtid gtid : entry.getValue().byDomain().values()) {
                    script.setString(index++, entry.getKey());
                    script.setLong(index++, gtid.domain());
                    script.setLong(index++, gtid.server());
                    script.setLong(index++, gtid.sequence());
                }
            }
            script.execute();
            for (int i = 0; i < rows.size(); i++) {
                if (i > 0) {
                    script.getMoreResults();
                }
                int count = script.getUpdateCount();
                if (count != 1) {
                    throw failure(owners.get(i), rows.get(i), countError(rows.get(i), count));
                }
            }
            if (positionRows > 0 && !rows.isEmpty()) {
                script.getMoreResults();
            }
        }
    }

    private static SQLException countError(RowChange row, int count) {
        return new SQLException(row.kind() == RowChange.Kind.INSERT ? "inserted " + count + " rows"
                : "row not found on the target (" + count + " rows matched)", "HY000", 0);
    }

    /** About how many bytes the row's statement takes once its values are written out. */
    private static long estimatedBytes(RowChange row) {
        long bytes = 64L * row.table().columns().size();
        for (Object[] image : new Object[][] {row.before(), row.after()}) {
            if (image != null) {
                for (Object value : image) {
                    if (value instanceof byte[] b) {
                        bytes += 2L * b.length;
                    } else if (value instanceof String text) {
                        bytes += 4L * text.length();
                    }
                }
            }
        }
        return bytes;
    }

    private static Map<String, MariaDbGtidPosition> positions(List<Transaction> batch) {
        Map<String, MariaDbGtidPosition> positions = new TreeMap<>();
        for (Transaction transaction : batch) {
            for (String schema : transaction.schemas()) {
                positions.merge(schema, MariaDbGtidPosition.empty().with(transaction.gtid()),
                        (a, b) -> a.with(transaction.gtid()));
            }
        }
        return positions;
    }

    /** The batch one statement per row, the way that names the row that fails. */
    private void applyRowByRow(List<Transaction> batch) {
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
        bindRow(statement, 1, row);
        int count = statement.executeUpdate();
        if (count != 1) {
            throw countError(row, count);
        }
    }

    /** Binds the row's values from {@code index} on, in {@link RowStatements}' order; returns the next index. */
    private static int bindRow(PreparedStatement statement, int index, RowChange row) throws SQLException {
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
        return index;
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
