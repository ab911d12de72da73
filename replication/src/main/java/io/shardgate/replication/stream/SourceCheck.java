package io.shardgate.replication.stream;

import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * What the change stream needs from its source, checked before the first event is read. Each
 * refusal is one line that names the setting or table and says what to change.
 */
public final class SourceCheck {
    private final ServerEndpoint source;
    private final TableFilter filter;

    public SourceCheck(ServerEndpoint source, TableFilter filter) {
        this.source = requireNonNull(source, "source is null");
        this.filter = requireNonNull(filter, "filter is null");
    }

    /** What the check found that is worth saying but does not stop the stream. */
    public record Result(boolean fullRowMetadata, MariaDbGtidPosition binlogEnd, List<String> warnings) {
    }

    /** Throws {@link StreamException} naming the first problem; {@code start} empty means the oldest binlog's start. */
    public Result check(MariaDbGtidPosition start) {
        requireNonNull(start, "start is null");
        try (Connection connection = source.connect(); Statement statement = connection.createStatement()) {
            String logBin;
            String format;
            String image;
            String compress;
            String metadata;
            try (ResultSet rows = statement.executeQuery("SELECT @@GLOBAL.log_bin, @@GLOBAL.binlog_format,"
                    + " @@GLOBAL.binlog_row_image, @@GLOBAL.log_bin_compress, @@GLOBAL.binlog_row_metadata")) {
                rows.next();
                logBin = rows.getString(1);
                format = rows.getString(2);
                image = rows.getString(3);
                compress = rows.getString(4);
                metadata = rows.getString(5);
            }
            String at = "source " + source.address();
            if (!"1".equals(logBin) && !"ON".equalsIgnoreCase(logBin)) {
                throw new StreamException(at + " has no binary log (log_bin=OFF); start it with log_bin");
            }
            if (!"ROW".equalsIgnoreCase(format)) {
                throw new StreamException(at + " has binlog_format=" + format
                        + "; the change stream needs ROW (SET GLOBAL binlog_format=ROW and reconnect clients)");
            }
            if (!"FULL".equalsIgnoreCase(image)) {
                throw new StreamException(at + " has binlog_row_image=" + image
                        + "; the change stream needs FULL (SET GLOBAL binlog_row_image=FULL)");
            }
            if ("1".equals(compress) || "ON".equalsIgnoreCase(compress)) {
                throw new StreamException(at + " has log_bin_compress=ON; the change stream cannot read compressed"
                        + " events (SET GLOBAL log_bin_compress=OFF)");
            }
            checkPrimaryKeys(statement, at);
            MariaDbGtidPosition end = MariaDbGtidPosition.parse(value(statement, "SELECT @@GLOBAL.gtid_binlog_pos"));
            checkStart(statement, at, start, end);
            List<String> warnings = new ArrayList<>();
            boolean full = "FULL".equalsIgnoreCase(metadata);
            if (!full) {
                warnings.add(at + " has binlog_row_metadata=" + metadata + ": column names come from the stream's"
                        + " schema history, evolved from the binlog's DDL (FULL logs them exactly)");
            }
            return new Result(full, end, warnings);
        } catch (SQLException e) {
            throw new StreamException("cannot check source " + source.address() + ": " + e.getMessage(), e);
        }
    }

    private void checkPrimaryKeys(Statement statement, String at) throws SQLException {
        try (ResultSet rows = statement.executeQuery("SELECT t.TABLE_SCHEMA, t.TABLE_NAME FROM information_schema.TABLES t"
                + " WHERE t.TABLE_TYPE = 'BASE TABLE' AND NOT EXISTS (SELECT 1 FROM information_schema.TABLE_CONSTRAINTS c"
                + " WHERE c.TABLE_SCHEMA = t.TABLE_SCHEMA AND c.TABLE_NAME = t.TABLE_NAME"
                + " AND c.CONSTRAINT_TYPE = 'PRIMARY KEY') ORDER BY 1, 2")) {
            while (rows.next()) {
                String schema = rows.getString(1);
                String table = rows.getString(2);
                if (filter.carriesTable(schema, table)) {
                    throw new StreamException(at + ": table " + schema + "." + table
                            + " has no primary key; add one or exclude the table from the stream");
                }
            }
        }
    }

    private void checkStart(Statement statement, String at, MariaDbGtidPosition start, MariaDbGtidPosition end)
            throws SQLException {
        for (MariaDbGtid wanted : start.byDomain().values()) {
            MariaDbGtid have = end.byDomain().get(wanted.domain());
            if (have == null || have.sequence() < wanted.sequence()) {
                throw new StreamException("start position " + start + " was never written by " + at
                        + " (its binlog ends at " + (end.isEmpty() ? "nothing" : end.toString()) + ")");
            }
        }
        String oldest = null;
        try (ResultSet rows = statement.executeQuery("SHOW BINARY LOGS")) {
            if (rows.next()) {
                oldest = rows.getString(1);
            }
        }
        if (oldest == null) {
            return;
        }
        MariaDbGtidPosition before = MariaDbGtidPosition.empty();
        try (ResultSet rows = statement.executeQuery("SHOW BINLOG EVENTS IN '" + oldest.replace("'", "") + "' LIMIT 4")) {
            while (rows.next()) {
                if ("Gtid_list".equalsIgnoreCase(rows.getString("Event_type"))) {
                    String info = rows.getString("Info").replace("[", "").replace("]", "").trim();
                    before = MariaDbGtidPosition.parse(info);
                }
            }
        }
        for (MariaDbGtid purged : before.byDomain().values()) {
            MariaDbGtid wanted = start.byDomain().get(purged.domain());
            if (wanted == null || wanted.sequence() < purged.sequence()) {
                throw new StreamException("start position " + (start.isEmpty() ? "(the beginning)" : start.toString())
                        + " is no longer in the binlog of " + at + ": its oldest binlog " + oldest + " starts after "
                        + before + "; seed the target with a copy and pass a newer --from-gtid");
            }
        }
    }

    private static String value(Statement statement, String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() && rows.getString(1) != null ? rows.getString(1) : "";
        }
    }
}
