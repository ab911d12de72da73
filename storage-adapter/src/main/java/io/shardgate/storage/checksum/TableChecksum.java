package io.shardgate.storage.checksum;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.StringJoiner;

import static java.util.Objects.requireNonNull;

/**
 * The checksum primitive: for the rows of a table in a primary-key range, the row count and
 * {@code BIT_XOR(CRC32(CONCAT_WS('#', col1, col2, …, CONCAT(ISNULL(n1), ISNULL(n2), …))))}, as
 * pt-table-checksum computes it. The null flags of the nullable columns tell NULL from an empty
 * string, which CONCAT_WS alone would not. The value depends only on the rows' contents, never on
 * the engine or the order rows are read in, so an InnoDB and a MyRocks shard holding the same
 * rows give the same result (verified by TableChecksumIT).
 */
public final class TableChecksum {

    public TableChecksum() {
    }

    /** The columns of {@code table} on this server; a table that does not exist is an error naming it. */
    public TableColumns columns(Connection connection, TableName table) throws SQLException {
        requireNonNull(connection, "connection is null");
        requireNonNull(table, "table is null");
        List<String> names = new ArrayList<>();
        List<String> nullable = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement("SELECT COLUMN_NAME, IS_NULLABLE"
                + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
            statement.setString(1, table.schema());
            statement.setString(2, table.table());
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    names.add(rows.getString(1));
                    if ("YES".equalsIgnoreCase(rows.getString(2))) {
                        nullable.add(rows.getString(1));
                    }
                }
            }
        }
        if (names.isEmpty()) {
            throw new SQLException("table " + table + " does not exist", "42S02", 1146);
        }
        List<String> key = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement("SELECT COLUMN_NAME"
                + " FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
                + " AND INDEX_NAME = 'PRIMARY' ORDER BY SEQ_IN_INDEX")) {
            statement.setString(1, table.schema());
            statement.setString(2, table.table());
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    key.add(rows.getString(1));
                }
            }
        }
        return new TableColumns(names, nullable, key);
    }

    /** Checksums the rows of {@code table} in {@code range}, reading its columns first. */
    public ChecksumResult checksum(Connection connection, TableName table, PkRange range) throws SQLException {
        return checksum(connection, table, columns(connection, table), range);
    }

    /** Checksums with a known column list (the same on every shard being compared). */
    public ChecksumResult checksum(Connection connection, TableName table, TableColumns columns, PkRange range)
            throws SQLException {
        requireNonNull(connection, "connection is null");
        requireNonNull(range, "range is null");
        String sql = sql(table, columns, range);
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            int index = 1;
            for (Object value : range.lowerInclusive()) {
                statement.setObject(index++, value);
            }
            for (Object value : range.upperExclusive()) {
                statement.setObject(index++, value);
            }
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return new ChecksumResult(rows.getLong(1), rows.getBigDecimal(2).longValueExact());
            }
        }
    }

    /** The checksum query; package-visible for its test. */
    static String sql(TableName table, TableColumns columns, PkRange range) {
        requireNonNull(table, "table is null");
        requireNonNull(columns, "columns is null");
        StringJoiner row = new StringJoiner(", ", "CONCAT_WS('#', ", ")");
        for (String column : columns.names()) {
            row.add(TableName.quote(column));
        }
        if (!columns.nullable().isEmpty()) {
            StringJoiner flags = new StringJoiner(", ", "CONCAT(", ")");
            for (String column : columns.nullable()) {
                flags.add("ISNULL(" + TableName.quote(column) + ")");
            }
            row.add(flags.toString());
        }
        StringBuilder sql = new StringBuilder("SELECT COUNT(*), BIT_XOR(CAST(CRC32(").append(row)
                .append(") AS UNSIGNED)) FROM ").append(table.sql());
        List<String> conditions = new ArrayList<>();
        if (!range.lowerInclusive().isEmpty()) {
            conditions.add(bound(columns.key(), range.lowerInclusive().size(), ">="));
        }
        if (!range.upperExclusive().isEmpty()) {
            conditions.add(bound(columns.key(), range.upperExclusive().size(), "<"));
        }
        if (!conditions.isEmpty()) {
            sql.append(" WHERE ").append(String.join(" AND ", conditions));
        }
        return sql.toString();
    }

    private static String bound(List<String> key, int values, String operator) {
        if (key.isEmpty()) {
            throw new IllegalArgumentException("a primary-key range needs a table with a primary key");
        }
        if (values != key.size()) {
            throw new IllegalArgumentException("a bound has " + values + " values for a primary key of "
                    + key.size() + " columns " + key);
        }
        if (key.size() == 1) {
            return TableName.quote(key.get(0)) + " " + operator + " ?";
        }
        StringJoiner columns = new StringJoiner(", ", "(", ")");
        key.forEach(column -> columns.add(TableName.quote(column)));
        return columns + " " + operator + " (" + String.join(", ", Collections.nCopies(key.size(), "?")) + ")";
    }
}
