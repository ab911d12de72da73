package io.shardgate.proxy.session;

import io.shardgate.proxy.backend.TextResult;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads user variables off the connection that set them and turns each into an SQL literal that
 * recreates it exactly on another connection: type (integer, decimal, double, string), bytes,
 * character set and collation. Four columns per variable: the value, its HEX, CHARSET and COLLATION.
 */
public final class UserVariableCapture {
    private static final int TYPE_DOUBLE = 5;
    private static final int TYPE_FLOAT = 4;
    private static final int TYPE_LONGLONG = 8;
    private static final int TYPE_DECIMAL = 0;
    private static final int TYPE_NEWDECIMAL = 246;

    private UserVariableCapture() {
    }

    public static String query(List<String> names) {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < names.size(); i++) {
            String variable = SettingsSync.userVariable(names.get(i));
            if (i > 0) {
                sql.append(", ");
            }
            sql.append(variable).append(", HEX(").append(variable).append("), CHARSET(").append(variable)
                    .append("), COLLATION(").append(variable).append(')');
        }
        // An explicit LIMIT: the session's own sql_select_limit (0, say) must not hide the row.
        return sql.append(" LIMIT 1").toString();
    }

    /** Name to literal, in the order of {@code names}; "NULL" for an unset variable. */
    public static Map<String, String> literals(List<String> names, TextResult result) {
        if (result.rows().size() != 1 || result.columns().size() != names.size() * 4) {
            throw new IllegalStateException("user variable capture returned " + result.rows().size() + " rows of "
                    + result.columns().size() + " columns for " + names);
        }
        List<byte[]> row = result.rows().get(0);
        Map<String, String> literals = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            byte[] value = row.get(i * 4);
            int type = result.columns().get(i * 4).type();
            literals.put(names.get(i), value == null ? "NULL"
                    : literal(type, text(value), text(row.get(i * 4 + 1)), text(row.get(i * 4 + 2)), text(row.get(i * 4 + 3))));
        }
        return literals;
    }

    static String literal(int type, String value, String hex, String charset, String collation) {
        switch (type) {
            case TYPE_LONGLONG, TYPE_DECIMAL, TYPE_NEWDECIMAL -> {
                return value;
            }
            case TYPE_DOUBLE, TYPE_FLOAT -> {
                String lower = value.toLowerCase(java.util.Locale.ROOT);
                return lower.contains("e") ? lower : lower + "e0";
            }
            default -> {
                if ("binary".equals(charset)) {
                    return "_binary X'" + hex + "'";
                }
                return "_" + charset + " X'" + hex + "' COLLATE " + collation;
            }
        }
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "" : new String(bytes, StandardCharsets.UTF_8);
    }
}
