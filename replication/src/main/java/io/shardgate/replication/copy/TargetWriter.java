package io.shardgate.replication.copy;

import io.shardgate.replication.stream.ServerEndpoint;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * One target's connection for the copy: each chunk's rows as multi-row {@code INSERT}s with the
 * values written as literals ({@link ColumnCodec}), in one transaction per chunk. Plain INSERT, not
 * REPLACE: a resumed copy first deletes what a chunk written after the last checkpoint left
 * ({@link #deleteAfter}), so no row is there twice. The session is utf8mb4 with
 * {@code time_zone='+00:00'}, strict, {@code NO_AUTO_VALUE_ON_ZERO}, without foreign key checks (a
 * child table may be copied before its parent) and with {@code unique_checks=0}, as
 * {@code mariadb-dump} output sets it: the rows come from a table where they are unique already
 * (InnoDB still checks its primary key; MyRocks then overwrites instead of looking up each key).
 */
final class TargetWriter implements AutoCloseable {
    private static final int ER_LOCK_DEADLOCK = 1213;
    private static final int DEADLOCK_RETRIES = 5;
    private final CopyTarget target;
    private final Connection connection;
    private final int maxStatementBytes;

    TargetWriter(CopyTarget target) {
        this.target = target;
        try {
            ServerEndpoint endpoint = target.endpoint();
            this.connection = endpoint.connect("useServerPrepStmts=false");
            try (Statement statement = connection.createStatement()) {
                statement.execute("SET SESSION time_zone = '+00:00', foreign_key_checks = 0, unique_checks = 0,"
                        + " sql_mode = 'NO_AUTO_VALUE_ON_ZERO,STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION'");
                try (ResultSet rows = statement.executeQuery("SELECT @@max_allowed_packet")) {
                    rows.next();
                    maxStatementBytes = (int) Math.min(4L << 20, rows.getLong(1) / 2);
                }
            }
            connection.setAutoCommit(false);
        } catch (SQLException e) {
            throw new CopyException("cannot connect to target " + target.name() + " (" + target.endpoint().address()
                    + "): " + e.getMessage(), e);
        }
    }

    CopyTarget target() {
        return target;
    }

    /**
     * Inserts {@code rows} and commits. A deadlock (the other lanes of the chunk insert next to these rows at the same
     * time) rolled the whole transaction back: it is written again, up to {@link #DEADLOCK_RETRIES} times.
     */
    void write(TableShape shape, List<Object[]> rows) throws SQLException {
        for (int attempt = 0; ; attempt++) {
            try {
                writeOnce(shape, rows);
                return;
            } catch (SQLException e) {
                if (e.getErrorCode() != ER_LOCK_DEADLOCK || attempt >= DEADLOCK_RETRIES) {
                    throw e;
                }
            }
        }
    }

    private void writeOnce(TableShape shape, List<Object[]> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        String prefix = shape.insertPrefix();
        List<ColumnCodec> codecs = shape.codecs();
        StringBuilder sql = new StringBuilder(Math.min(maxStatementBytes + 64 * 1024, 1 << 22));
        try (Statement statement = connection.createStatement()) {
            statement.setEscapeProcessing(false);
            sql.append(prefix);
            boolean first = true;
            for (Object[] row : rows) {
                if (!first) {
                    sql.append(',');
                }
                first = false;
                sql.append('(');
                for (int i = 0; i < row.length; i++) {
                    if (i > 0) {
                        sql.append(',');
                    }
                    codecs.get(i).append(sql, row[i]);
                }
                sql.append(')');
                if (sql.length() >= maxStatementBytes) {
                    statement.executeUpdate(sql.toString());
                    sql.setLength(0);
                    sql.append(prefix);
                    first = true;
                }
            }
            if (!first) {
                statement.executeUpdate(sql.toString());
            }
            connection.commit();
        } catch (SQLException e) {
            rollback();
            throw e;
        }
    }

    /** Deletes the rows after {@code last} in key order (all rows when empty), left by a chunk written after the last checkpoint. */
    long deleteAfter(TableShape shape, List<PkValue> last) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.setEscapeProcessing(false);
            long deleted = statement.executeLargeUpdate("DELETE FROM " + shape.qualified()
                    + (last.isEmpty() ? "" : " WHERE " + shape.after(last)));
            connection.commit();
            return deleted;
        } catch (SQLException e) {
            rollback();
            throw e;
        }
    }

    private void rollback() {
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // The connection is broken; the copy fails and a resumed one reconnects.
        }
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
