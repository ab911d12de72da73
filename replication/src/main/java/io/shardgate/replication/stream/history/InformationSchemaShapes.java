package io.shardgate.replication.stream.history;

import io.shardgate.replication.stream.TableFilter;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Table shapes read from a server's {@code information_schema}: what a stream starts from when no
 * history is stored. A reshard's copy phase calls {@link #read} at the position of its consistent
 * snapshot and hands the result to {@code ChangeStream.Builder.initialSchemas}. The data dictionary
 * is not versioned like rows are: read it while DDL is held off (under the lock taken to open the
 * snapshot and record its GTID), or the shapes may be newer than the snapshot.
 */
public final class InformationSchemaShapes {
    private InformationSchemaShapes() {
    }

    /** Every base table {@code filter} carries, with its columns, primary key and default character set. */
    public static List<TableShape> read(Connection connection, TableFilter filter) throws SQLException {
        Map<TableName, String> charsets = new LinkedHashMap<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT t.TABLE_SCHEMA, t.TABLE_NAME, c.CHARACTER_SET_NAME"
                     + " FROM information_schema.TABLES t LEFT JOIN information_schema.COLLATIONS c"
                     + " ON c.COLLATION_NAME = t.TABLE_COLLATION WHERE t.TABLE_TYPE = 'BASE TABLE'"
                     + " ORDER BY t.TABLE_SCHEMA, t.TABLE_NAME")) {
            while (rows.next()) {
                TableName name = new TableName(rows.getString(1), rows.getString(2));
                if (filter.carriesTable(name.schema(), name.table())) {
                    charsets.put(name, rows.getString(3));
                }
            }
        }
        Map<TableName, List<ColumnShape>> columns = new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
        Map<TableName, List<String>> keys = new LinkedHashMap<>();
        Map<TableName, List<String>> shown = new LinkedHashMap<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, COLUMN_TYPE,"
                     + " CHARACTER_SET_NAME, IS_GENERATED, IS_NULLABLE, COLUMN_KEY FROM information_schema.COLUMNS"
                     + " ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION")) {
            while (rows.next()) {
                TableName name = new TableName(rows.getString(1), rows.getString(2));
                if (charsets.containsKey(name)) {
                    columns.computeIfAbsent(name, n -> new ArrayList<>()).add(new ColumnShape(rows.getString(3),
                            rows.getString(4).toLowerCase(Locale.ROOT).contains("unsigned"), rows.getString(5),
                            "ALWAYS".equalsIgnoreCase(rows.getString(6)), "YES".equalsIgnoreCase(rows.getString(7))));
                    if ("PRI".equals(rows.getString(8))) {
                        // Also a UNIQUE NOT NULL key that InnoDB uses as the primary key of a table without one.
                        shown.computeIfAbsent(name, n -> new ArrayList<>()).add(rows.getString(3));
                    }
                }
            }
        }
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME"
                     + " FROM information_schema.STATISTICS WHERE INDEX_NAME = 'PRIMARY'"
                     + " ORDER BY TABLE_SCHEMA, TABLE_NAME, SEQ_IN_INDEX")) {
            while (rows.next()) {
                TableName name = new TableName(rows.getString(1), rows.getString(2));
                if (charsets.containsKey(name)) {
                    keys.computeIfAbsent(name, n -> new ArrayList<>()).add(rows.getString(3));
                }
            }
        }
        List<TableShape> shapes = new ArrayList<>();
        columns.forEach((name, list) -> shapes.add(new TableShape(name, list, keys.getOrDefault(name, shown.getOrDefault(name, List.of())),
                charsets.get(name))));
        return shapes;
    }
}
