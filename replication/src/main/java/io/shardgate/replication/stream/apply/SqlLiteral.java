package io.shardgate.replication.stream.apply;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.HexFormat;

/**
 * Writes a row value as a MariaDB SQL literal that stores the same value, for a session whose
 * {@code sql_mode} has no {@code NO_BACKSLASH_ESCAPES} and whose character set is utf8mb4 (the
 * applier's sessions). The value types are those of {@link io.shardgate.replication.stream.RowChange}.
 *
 * <ul>
 *   <li>Text is quoted with backslash escapes for {@code \ ' " NUL LF CR ^Z}.</li>
 *   <li>Bytes are a hexadecimal literal {@code X'..'}: a binary string, stored unchanged in a
 *       binary or non-utf8 text column.</li>
 *   <li>Float and double use Java's shortest round-trip form, as Connector/J does.</li>
 * </ul>
 */
final class SqlLiteral {
    /** Longer binary values are left to the caller to bind: as hex they would take twice the bytes. */
    static final int MAX_BYTES = 256 * 1024;
    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    private SqlLiteral() {
    }

    /**
     * Appends {@code value} as a literal; returns false (and appends nothing) for a type it does not
     * write and for bytes longer than {@link #MAX_BYTES}.
     */
    static boolean append(StringBuilder sql, Object value) {
        if (value == null) {
            sql.append("NULL");
        } else if (value instanceof String text) {
            appendText(sql, text);
        } else if (value instanceof Long || value instanceof Integer || value instanceof Short
                || value instanceof Byte || value instanceof BigInteger) {
            sql.append(value);
        } else if (value instanceof BigDecimal decimal) {
            sql.append(decimal.toPlainString());
        } else if (value instanceof Double number && Double.isFinite(number)) {
            sql.append(number.doubleValue());
        } else if (value instanceof Float number && Float.isFinite(number)) {
            sql.append(number.floatValue());
        } else if (value instanceof byte[] bytes && bytes.length <= MAX_BYTES) {
            appendBytes(sql, bytes);
        } else {
            return false;
        }
        return true;
    }

    static void appendText(StringBuilder sql, String text) {
        sql.append('\'');
        int length = text.length();
        int plain = 0;
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            String escape = switch (c) {
                case '\\' -> "\\\\";
                case '\'' -> "\\'";
                case '"' -> "\\\"";
                case 0 -> "\\0";
                case '\n' -> "\\n";
                case '\r' -> "\\r";
                case 26 -> "\\Z";
                default -> null;
            };
            if (escape != null) {
                sql.append(text, plain, i).append(escape);
                plain = i + 1;
            }
        }
        sql.append(text, plain, length).append('\'');
    }

    static void appendBytes(StringBuilder sql, byte[] bytes) {
        sql.ensureCapacity(sql.length() + 3 + 2 * bytes.length);
        HEX.formatHex(sql.append("X'"), bytes).append('\'');
    }
}
