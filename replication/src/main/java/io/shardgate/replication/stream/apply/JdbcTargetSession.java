package io.shardgate.replication.stream.apply;

import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.stream.Change;
import io.shardgate.replication.stream.DdlChange;
import io.shardgate.replication.stream.RowChange;
import io.shardgate.replication.stream.ServerEndpoint;
import io.shardgate.replication.stream.TableSchema;
import io.shardgate.replication.stream.Transaction;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.IdentityHashMap;
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
 * <p>A batch travels as few scripts with the values written inline as literals
 * ({@link SqlLiteral}; up to {@value #MAX_SCRIPT_STATEMENTS} statements or about
 * {@value #MAX_SCRIPT_BYTES} characters each, see {@link Script}), the last one ending with the
 * positions' upsert: one round trip per script plus the commit, instead of one per row, and no
 * statement text for the driver to parse. A row with a value that has no literal form is bound
 * as parameters on its own, and so is one with a binary value above {@value SqlLiteral#MAX_BYTES}
 * bytes, which would double in size as a hexadecimal literal. Each statement's row count is
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
    private static final int MAX_CACHED_TABLES = 1024;
    /** ER_SIGNAL_EXCEPTION: what SIGNAL SQLSTATE '45000' raises. */
    private static final int SIGNALLED = 1644;
    private static final String BLOCK_START = "BEGIN NOT ATOMIC\n";
    private static final String BLOCK_END = "END";
    private static final String CHECK_ONE_ROW = ";\nIF ROW_COUNT() <> 1 THEN SIGNAL SQLSTATE '45000'"
            + " SET MESSAGE_TEXT = 'a row change did not find or insert exactly one row'; END IF;\n";
    private static final String POSITION_UPDATE = " ON DUPLICATE KEY UPDATE server_id = VALUES(server_id), seq = VALUES(seq)";

    private final ServerEndpoint server;
    private final StateTables tables;
    private final SchemaHistoryTable history;
    private final String positionUpsert;
    private final AtomicBoolean firstDdlDone;
    private final Connection connection;
    private final Map<String, PreparedStatement> statements = new LinkedHashMap<>();
    /** By table shape; the reader hands on one {@link TableSchema} instance per table map. */
    private final Map<TableSchema, RowStatements.Literal> literals = new IdentityHashMap<>();
    /** Reused by every batch; cleared first, as a failed batch leaves its script behind. */
    private final Script script = new Script();
    private PreparedStatement positionStatement;

    JdbcTargetSession(ServerEndpoint server, StateTables tables, AtomicBoolean firstDdlDone) throws SQLException {
        this.server = server;
        this.tables = tables;
        this.history = new SchemaHistoryTable(tables.history());
        this.positionUpsert = "INSERT INTO " + tables.positions() + " (schema_name, domain_id, server_id, seq) VALUES ";
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
        script.clear();
        for (Transaction transaction : batch) {
            for (Change change : transaction.changes()) {
                RowChange row = (RowChange) change;
                if (!script.add(literal(row.table()), row)) {
                    // Bound, not inline: a large binary value would double in size as a hex literal,
                    // and some values have no literal form here. The script so far goes first.
                    script.run();
                    applyRow(row);
                } else if (script.full()) {
                    script.run();
                }
            }
        }
        script.positions(positions(batch));
        script.run();
    }

    private RowStatements.Literal literal(TableSchema table) {
        RowStatements.Literal literal = literals.get(table);
        if (literal == null) {
            if (literals.size() >= MAX_CACHED_TABLES) {
                literals.clear();
            }
            literal = new RowStatements.Literal(table);
            literals.put(table, literal);
        }
        return literal;
    }

    /**
     * Statements with inline values sent as one anonymous compound statement
     * ({@code BEGIN NOT ATOMIC ... END}), each followed by a check that it changed exactly one row
     * ({@code ROW_COUNT()}, which counts matched rows: Connector/J sets {@code CLIENT_FOUND_ROWS}).
     * The server answers the whole script with one OK instead of one per statement: with a
     * multi-statement query, each statement's OK was a write on the server and a wake-up of the
     * worker, about nine context switches per source transaction. A failed check signals
     * SQLSTATE 45000, and the batch is applied again row by row, which names the row.
     */
    private final class Script {
        /** The block so far, from its BEGIN on: written in place, so running it copies nothing. */
        private final StringBuilder sql = new StringBuilder(16 * 1024).append(BLOCK_START);
        private int statements;

        /** False, with the script as it was, when the row has a value without a literal form. */
        boolean add(RowStatements.Literal literal, RowChange row) {
            if (!literal.append(sql, row)) {
                return false;
            }
            sql.append(CHECK_ONE_ROW);
            statements++;
            return true;
        }

        boolean full() {
            return statements >= MAX_SCRIPT_STATEMENTS || sql.length() >= MAX_SCRIPT_BYTES;
        }

        void positions(Map<String, MariaDbGtidPosition> positions) {
            boolean first = true;
            for (Map.Entry<String, MariaDbGtidPosition> entry : positions.entrySet()) {
                for (MariaDbGtid gtid : entry.getValue().byDomain().values()) {
                    sql.append(first ? positionUpsert : ", ");
                    first = false;
                    sql.append('(');
                    SqlLiteral.appendText(sql, entry.getKey());
                    sql.append(", ").append(gtid.domain()).append(", ").append(gtid.server()).append(", ")
                            .append(gtid.sequence()).append(')');
                }
            }
            if (!first) {
                sql.append(POSITION_UPDATE).append(";\n");
            }
        }

        void run() throws SQLException {
            if (sql.length() == BLOCK_START.length()) {
                return;
            }
            try (Statement statement = connection.createStatement()) {
                statement.setEscapeProcessing(false);
                statement.execute(sql.append(BLOCK_END).toString());
            }
            clear();
        }

        void clear() {
            sql.setLength(BLOCK_START.length());
            statements = 0;
        }
    }

    private static SQLException countError(RowChange row, int count) {
        return new SQLException(row.kind() == RowChange.Kind.INSERT ? "inserted " + count + " rows"
                : "row not found on the target (" + count + " rows matched)", "HY000", 0);
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
        RowBinding.bindRow(statement, 1, row);
        int count = statement.executeUpdate();
        if (count != 1) {
            throw countError(row, count);
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
            for (Change change : transaction.changes()) {
                history.save(connection, ((DdlChange) change).history());
            }
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
            positionStatement = connection.prepareStatement("INSERT INTO " + tables.positions()
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
            history.prune(connection, watermark);
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
        if (e.getErrorCode() == SIGNALLED) {
            // A row check failed (Connector/J reports a SIGNAL as a transient connection error).
            return false;
        }
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
