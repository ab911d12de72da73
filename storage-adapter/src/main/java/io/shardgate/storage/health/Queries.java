package io.shardgate.storage.health;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The small query helpers the samplers share. */
final class Queries {
    private Queries() {
    }

    /** First column to second column, keys in upper case; a NULL value reads as "". */
    static Map<String, String> pairs(Connection connection, String sql) throws SQLException {
        Map<String, String> pairs = new LinkedHashMap<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                String value = rows.getString(2);
                pairs.put(rows.getString(1).toUpperCase(Locale.ROOT), value == null ? "" : value);
            }
        }
        return pairs;
    }

    /** Whether information_schema.ENGINES lists {@code engine} as usable (YES or DEFAULT). */
    static boolean engineLoaded(Connection connection, String engine) throws SQLException {
        String support = pairs(connection, "SELECT ENGINE, SUPPORT FROM information_schema.ENGINES WHERE ENGINE = '"
                + engine + "'").get(engine.toUpperCase(Locale.ROOT));
        return "YES".equalsIgnoreCase(support) || "DEFAULT".equalsIgnoreCase(support);
    }

    /** The first row's columns as strings (NULL as ""); empty when there is no row. */
    static List<String> firstRow(Connection connection, String sql) throws SQLException {
        List<String> row = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            if (rows.next()) {
                for (int i = 1; i <= rows.getMetaData().getColumnCount(); i++) {
                    String value = rows.getString(i);
                    row.add(value == null ? "" : value);
                }
            }
        }
        return row;
    }

    /** A value of {@code pairs} as a number; absent or not a number is null. */
    static Long number(Map<String, String> pairs, String key) {
        return parse(pairs.get(key.toUpperCase(Locale.ROOT)));
    }

    /** A decimal number as a long (fractions cut off); null, blank or not a number is null. */
    static Long parse(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return new java.math.BigDecimal(value.trim()).longValue();
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
