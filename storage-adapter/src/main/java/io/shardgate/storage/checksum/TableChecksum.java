package io.shardgate.storage.checksum;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * The checksum primitive: for the rows of a table in a primary-key range, the row count and
 * {@code BIT_XOR(CRC32(CONCAT_WS('#', col1, col2, …, CONCAT(ISNULL(n1), ISNULL(n2), …))))}, as
 * pt-table-checksum computes it. The null flags of the nullable columns tell NULL from an empty
 * string, which CONCAT_WS alone would not. The value depends only on the rows' contents, never on
 * the engine or the order rows are read in, so an InnoDB and a MyRocks shard holding the same
 * rows give the same result (verified by TableChecksumIT).
 *
 * <p>Each engine's adapter hands out its own instance ({@code StorageAdapter.checksum()}) with a
 * {@link ScanHint}, which changes how rows are read, never the value. Besides the range checksum it offers what a diff needs to narrow a range down: the key at an
 * offset (chunk boundaries) and each row's key with its own CRC, in key order.
 */
public final class TableChecksum {

    /** How the checksum queries read the table. */
    public enum ScanHint {
        /** Bounds as row comparisons only, {@code (a, b) >= (?, ?)}; the optimizer's choice of index. */
        NONE,
        /**
         * A composite key's bounds also spelt out, {@code (a > ? OR (a = ? AND b >= ?))}, which MariaDB's range
         * optimizer turns into a primary-key range: it does not for a row comparison (EXPLAIN shows a full
         * index scan, so each chunk of a diff would read the table from its start).
         */
        KEY_RANGE,
        /** {@link #KEY_RANGE}, and {@code FORCE INDEX (PRIMARY)}. */
        PRIMARY
    }

    private static final int STREAM_BATCH = 1_000;

    private final ScanHint hint;

    public TableChecksum() {
        this(ScanHint.NONE);
    }

    public TableChecksum(ScanHint hint) {
        this.hint = requireNonNull(hint, "hint is null");
    }

    public ScanHint hint() {
        return hint;
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
        String sql = sql(table, columns, range, hint);
        try (PreparedStatement statement = prepare(connection, sql, columns, range, hint)) {
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return new ChecksumResult(rows.getLong(1), rows.getBigDecimal(2).longValueExact());
            }
        }
    }

    /**
     * The primary key of the row {@code offset} rows into {@code range} in key order (0 is the first),
     * or empty when the range holds no more rows than that: the keyed index walk that places chunk
     * boundaries.
     */
    public Optional<List<Object>> keyAt(Connection connection, TableName table, TableColumns columns, PkRange range,
            long offset) throws SQLException {
        requireNonNull(connection, "connection is null");
        if (offset < 0) {
            throw new IllegalArgumentException("offset: " + offset + " (expected: >= 0)");
        }
        String sql = select(table, columns, range, String.join(", ", quoted(columns.key()))) + " LIMIT 1 OFFSET " + offset;
        try (PreparedStatement statement = prepare(connection, sql, columns, range, hint);
             ResultSet rows = statement.executeQuery()) {
            return rows.next() ? Optional.of(values(rows, columns.key().size())) : Optional.empty();
        }
    }

    /** The table's greatest primary key, or empty when it has no rows. */
    public Optional<List<Object>> lastKey(Connection connection, TableName table, TableColumns columns) throws SQLException {
        requireNonNull(connection, "connection is null");
        requireKey(table, columns);
        String sql = "SELECT " + String.join(", ", quoted(columns.key())) + " FROM " + table.sql() + hintSql(hint)
                + " ORDER BY " + String.join(", ", quoted(columns.key()).stream().map(c -> c + " DESC").toList()) + " LIMIT 1";
        try (PreparedStatement statement = connection.prepareStatement(sql);
             ResultSet rows = statement.executeQuery()) {
            return rows.next() ? Optional.of(values(rows, columns.key().size())) : Optional.empty();
        }
    }

    /**
     * Each row of {@code range} in key order: its primary key and its own CRC32 (the value the range
     * checksum XORs), handed to {@code row} one at a time.
     */
    public void rowChecksums(Connection connection, TableName table, TableColumns columns, PkRange range,
            Consumer<RowChecksum> row) throws SQLException {
        requireNonNull(connection, "connection is null");
        requireNonNull(row, "row is null");
        int keys = columns.key().size();
        String sql = select(table, columns, range, String.join(", ", quoted(columns.key()))
                + ", CAST(CRC32(" + rowExpression(columns) + ") AS UNSIGNED)");
        try (PreparedStatement statement = prepare(connection, sql, columns, range, hint);
             ResultSet rows = streamed(statement).executeQuery()) {
            while (rows.next()) {
                row.accept(new RowChecksum(values(rows, keys), rows.getBigDecimal(keys + 1).longValueExact()));
            }
        }
    }

    /**
     * The values of {@code selected} columns (after the primary key) of each row of {@code range} in key
     * order, the key first: what an ownership check reads.
     */
    public void keyColumns(Connection connection, TableName table, TableColumns columns, PkRange range,
            List<String> selected, Consumer<List<Object>> row) throws SQLException {
        requireNonNull(connection, "connection is null");
        requireNonNull(row, "row is null");
        List<String> all = new ArrayList<>(columns.key());
        all.addAll(requireNonNull(selected, "selected is null"));
        String sql = select(table, columns, range, String.join(", ", quoted(all)));
        try (PreparedStatement statement = prepare(connection, sql, columns, range, hint);
             ResultSet rows = streamed(statement).executeQuery()) {
            while (rows.next()) {
                row.accept(values(rows, all.size()));
            }
        }
    }

    /** {@code SELECT what FROM table [hint] WHERE range ORDER BY key}. */
    private String select(TableName table, TableColumns columns, PkRange range, String what) {
        requireNonNull(table, "table is null");
        requireNonNull(columns, "columns is null");
        requireNonNull(range, "range is null");
        requireKey(table, columns);
        return "SELECT " + what + " FROM " + table.sql() + hintSql(hint) + where(columns, range, hint)
                + " ORDER BY " + String.join(", ", quoted(columns.key()));
    }

    /** Rows arrive as they are read, a batch at a time, instead of the whole result first. */
    private static PreparedStatement streamed(PreparedStatement statement) throws SQLException {
        statement.setFetchSize(STREAM_BATCH);
        return statement;
    }

    private static void requireKey(TableName table, TableColumns columns) {
        requireNonNull(table, "table is null");
        if (requireNonNull(columns, "columns is null").key().isEmpty()) {
            throw new IllegalArgumentException("reading " + table + " in key order needs a primary key");
        }
    }

    private static PreparedStatement prepare(Connection connection, String sql, TableColumns columns, PkRange range,
            ScanHint hint) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        try {
            int index = 1;
            for (Object value : parameters(columns, range, hint)) {
                statement.setObject(index++, value);
            }
            return statement;
        } catch (SQLException | RuntimeException e) {
            statement.close();
            throw e;
        }
    }

    private static List<Object> values(ResultSet rows, int count) throws SQLException {
        List<Object> values = new ArrayList<>(count);
        for (int i = 1; i <= count; i++) {
            values.add(rows.getObject(i));
        }
        return Collections.unmodifiableList(values);
    }

    private static List<String> quoted(List<String> names) {
        return names.stream().map(TableName::quote).toList();
    }

    private static String hintSql(ScanHint hint) {
        return hint == ScanHint.PRIMARY ? " FORCE INDEX (PRIMARY)" : "";
    }

    /** The checksum query; package-visible for its test. */
    static String sql(TableName table, TableColumns columns, PkRange range) {
        return sql(table, columns, range, ScanHint.NONE);
    }

    static String sql(TableName table, TableColumns columns, PkRange range, ScanHint hint) {
        requireNonNull(table, "table is null");
        requireNonNull(columns, "columns is null");
        return "SELECT COUNT(*), BIT_XOR(CAST(CRC32(" + rowExpression(columns) + ") AS UNSIGNED)) FROM " + table.sql()
                + hintSql(hint) + where(columns, range, hint);
    }

    /** {@code CONCAT_WS('#', col1, …, CONCAT(ISNULL(n1), …))}: one row as the string its CRC is taken of. */
    private static String rowExpression(TableColumns columns) {
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
        return row.toString();
    }

    /**
     * The range as a condition: a composite key's bounds are row comparisons, {@code (a, b) >= (?, ?)}, and
     * unless the hint is {@link ScanHint#NONE}, before them the same bounds spelt out
     * ({@link ScanHint#KEY_RANGE}). {@link #parameters} gives the values in the same order.
     */
    private static String where(TableColumns columns, PkRange range, ScanHint hint) {
        requireNonNull(range, "range is null");
        List<String> conditions = new ArrayList<>();
        List<String> rows = new ArrayList<>();
        List<String> key = columns.key();
        if (!range.lowerInclusive().isEmpty()) {
            rows.add(bound(key, range.lowerInclusive().size(), ">="));
            if (spelt(key, hint)) {
                conditions.add(spelt(key, ">", ">="));
            }
        }
        if (!range.upperExclusive().isEmpty()) {
            rows.add(bound(key, range.upperExclusive().size(), "<"));
            if (spelt(key, hint)) {
                conditions.add(spelt(key, "<", "<"));
            }
        }
        conditions.addAll(rows);
        return conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions);
    }

    /** The values {@link #where} binds, in its order. */
    private static List<Object> parameters(TableColumns columns, PkRange range, ScanHint hint) {
        List<Object> values = new ArrayList<>();
        if (spelt(columns.key(), hint)) {
            for (List<Object> bound : List.of(range.lowerInclusive(), range.upperExclusive())) {
                for (int i = 0; i < bound.size(); i++) {
                    values.addAll(bound.subList(0, i + 1));
                }
            }
        }
        values.addAll(range.lowerInclusive());
        values.addAll(range.upperExclusive());
        return values;
    }

    private static boolean spelt(List<String> key, ScanHint hint) {
        return key.size() > 1 && hint != ScanHint.NONE;
    }

    /** {@code (k1 OP ? OR (k1 = ? AND k2 OP ?) OR …)}, the last column compared with {@code lastOperator}. */
    private static String spelt(List<String> key, String operator, String lastOperator) {
        StringJoiner any = new StringJoiner(" OR ", "(", ")");
        for (int i = 0; i < key.size(); i++) {
            StringJoiner all = new StringJoiner(" AND ", i == 0 ? "" : "(", i == 0 ? "" : ")");
            for (int j = 0; j < i; j++) {
                all.add(TableName.quote(key.get(j)) + " = ?");
            }
            all.add(TableName.quote(key.get(i)) + " " + (i == key.size() - 1 ? lastOperator : operator) + " ?");
            any.add(all.toString());
        }
        return any.toString();
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
