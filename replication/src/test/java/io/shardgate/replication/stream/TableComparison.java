package io.shardgate.replication.stream;

import io.shardgate.replication.topology.Node;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Asserts that a table has the same content on two servers: CHECKSUM TABLE, then row by row. */
public final class TableComparison {
    private TableComparison() {
    }

    public static void assertSameTable(Node source, Node target, String table, String orderBy) {
        List<String> sourceRows = rows(source, table, orderBy);
        List<String> targetRows = rows(target, table, orderBy);
        assertThat(targetRows).as("rows of " + table).containsExactlyElementsOf(sourceRows);
        assertThat(checksum(target, table)).as("CHECKSUM TABLE " + table).isEqualTo(checksum(source, table));
    }

    /** Row by row only: CHECKSUM TABLE differs between engines for the same rows. */
    public static void assertRowsEqual(Node source, Node target, String table, String orderBy) {
        assertThat(rows(target, table, orderBy)).as("rows of " + table).containsExactlyElementsOf(rows(source, table, orderBy));
    }

    static long checksum(Node node, String table) {
        try (Connection connection = node.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("CHECKSUM TABLE " + table)) {
            rows.next();
            return rows.getLong(2);
        } catch (SQLException e) {
            throw new AssertionError(node.name() + ": " + e.getMessage(), e);
        }
    }

    static List<String> rows(Node node, String table, String orderBy) {
        List<String> result = new ArrayList<>();
        try (Connection connection = node.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET time_zone = '+00:00'");
            try (ResultSet rows = statement.executeQuery("SELECT * FROM " + table + " ORDER BY " + orderBy)) {
                int columns = rows.getMetaData().getColumnCount();
                while (rows.next()) {
                    StringBuilder row = new StringBuilder();
                    for (int i = 1; i <= columns; i++) {
                        Object value = rows.getObject(i);
                        String text = value instanceof byte[] bytes ? (bytes.length > 64
                                ? bytes.length + " bytes, hash " + Arrays.hashCode(bytes)
                                : "0x" + java.util.HexFormat.of().formatHex(bytes))
                                : value instanceof String s && s.length() > 64 ? s.length() + " chars, hash " + s.hashCode()
                                : String.valueOf(value);
                        row.append(rows.getMetaData().getColumnLabel(i)).append('=').append(text).append(' ');
                    }
                    result.add(row.toString());
                }
            }
        } catch (SQLException e) {
            throw new AssertionError(node.name() + ": " + e.getMessage(), e);
        }
        return result;
    }

    public static long count(Node node, String table) {
        return Long.parseLong(node.queryString("SELECT COUNT(*) FROM " + table));
    }
}
