package io.shardgate.it;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * A whole result as a client sees it: each column's metadata and every row's values as the driver's
 * {@code getString} text, so that two servers' answers can be compared exactly, in order or as
 * multisets.
 */
record QueryResult(List<Column> columns, List<List<String>> rows) {
    private static final Comparator<List<String>> ROW_ORDER = (a, b) -> {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = Comparator.<String>nullsFirst(Comparator.naturalOrder()).compare(a.get(i), b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    };

    QueryResult {
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
    }

    /** What ResultSetMetaData says of a column. */
    record Column(String label, int type, String typeName, int precision, int scale, int nullable) {
        @Override
        public String toString() {
            return label + " " + typeName + "(" + precision + "," + scale + ")" + (nullable == ResultSetMetaData.columnNoNulls ? " NOT NULL" : "");
        }
    }

    /**
     * Runs {@code sql} on {@code connection}: through a PreparedStatement when {@code prepared} or
     * when there are parameters, else as a plain Statement.
     */
    static QueryResult run(Connection connection, String sql, List<?> parameters, boolean prepared) throws SQLException {
        if (!prepared && parameters.isEmpty()) {
            try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
                return read(rows);
            }
        }
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.size(); i++) {
                statement.setObject(i + 1, parameters.get(i));
            }
            try (ResultSet rows = statement.executeQuery()) {
                return read(rows);
            }
        }
    }

    static QueryResult run(Connection connection, String sql) throws SQLException {
        return run(connection, sql, List.of(), false);
    }

    static QueryResult read(ResultSet rows) throws SQLException {
        ResultSetMetaData meta = rows.getMetaData();
        List<Column> columns = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            columns.add(new Column(meta.getColumnLabel(i), meta.getColumnType(i), meta.getColumnTypeName(i),
                    meta.getPrecision(i), meta.getScale(i), meta.isNullable(i)));
        }
        List<List<String>> values = new ArrayList<>();
        while (rows.next()) {
            List<String> row = new ArrayList<>(columns.size());
            for (int i = 1; i <= columns.size(); i++) {
                row.add(rows.getString(i));
            }
            values.add(row);
        }
        return new QueryResult(columns, values);
    }

    List<String> labels() {
        return columns.stream().map(Column::label).toList();
    }

    /** The values of column {@code index} (from 0). */
    List<String> column(int index) {
        return rows.stream().map(row -> row.get(index)).toList();
    }

    /** The rows in a canonical order, for comparing multisets. */
    QueryResult sorted() {
        List<List<String>> sorted = new ArrayList<>(rows);
        sorted.sort(ROW_ORDER);
        return new QueryResult(columns, sorted);
    }

    /**
     * Null when {@code actual} equals this result (the expected one): the same column metadata, and
     * the same rows in the same order when {@code ordered}, else the same multiset of rows. Otherwise a
     * short description of the first differences.
     */
    String differenceFrom(QueryResult actual, boolean ordered) {
        String columnDifference = columns.equals(actual.columns) ? null
                : "columns differ: expected " + columns + " but got " + actual.columns;
        List<String> differences = Stream.of(columnDifference, rowDifference(actual, ordered)).filter(Objects::nonNull).toList();
        return differences.isEmpty() ? null : String.join("; ", differences);
    }

    private String rowDifference(QueryResult actual, boolean ordered) {
        List<List<String>> expectedRows = ordered ? rows : sorted().rows;
        List<List<String>> actualRows = ordered ? actual.rows : actual.sorted().rows;
        if (expectedRows.equals(actualRows)) {
            return null;
        }
        StringBuilder out = new StringBuilder("rows differ: expected ").append(expectedRows.size()).append(" rows, got ")
                .append(actualRows.size());
        if (ordered) {
            int i = 0;
            while (i < Math.min(expectedRows.size(), actualRows.size()) && expectedRows.get(i).equals(actualRows.get(i))) {
                i++;
            }
            out.append("; first difference at row ").append(i).append(": expected ")
                    .append(i < expectedRows.size() ? expectedRows.get(i) : "no row").append(", got ")
                    .append(i < actualRows.size() ? actualRows.get(i) : "no row");
        }
        else {
            out.append("; missing ").append(firstMissing(expectedRows, actualRows)).append("; unexpected ")
                    .append(firstMissing(actualRows, expectedRows));
        }
        return out.toString();
    }

    /** Up to 5 rows of sorted {@code from} that sorted {@code in} lacks (counting duplicates). */
    private static List<List<String>> firstMissing(List<List<String>> from, List<List<String>> in) {
        List<List<String>> missing = new ArrayList<>();
        int j = 0;
        for (List<String> row : from) {
            while (j < in.size() && ROW_ORDER.compare(in.get(j), row) < 0) {
                j++;
            }
            if (j < in.size() && Objects.equals(in.get(j), row)) {
                j++;
            }
            else if (missing.size() < 5) {
                missing.add(row);
            }
        }
        return missing;
    }
}
