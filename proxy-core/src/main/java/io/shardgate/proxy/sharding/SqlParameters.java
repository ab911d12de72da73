package io.shardgate.proxy.sharding;

import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.errors.ErrorCode;
import io.shardgate.router.value.SqlValue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * Puts parameter values into a shard statement's SQL in place of its {@code ?} placeholders, as
 * literals a server reads back to the same value: numbers as digits, strings as a hex literal of
 * the very bytes the client sent, introduced by the client's character set ({@code _latin1 X'E9'};
 * {@code _binary} when they are not valid in it; immune to sql_mode NO_BACKSLASH_ESCAPES), byte
 * arrays as a binary hex literal. Placeholders are
 * found outside quoted strings, quoted identifiers and comments.
 */
final class SqlParameters {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private SqlParameters() {
    }

    /** {@code sql} with its placeholders replaced by {@code values}; strings were read in {@code charset} and go back in it. */
    static String inline(String sql, List<SqlValue> values, ClientCharset charset) {
        if (values.isEmpty()) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length() + 16 * values.size());
        int next = 0;
        int length = sql.length();
        for (int i = 0; i < length; i++) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int end = closing(sql, i, c);
                out.append(sql, i, end);
                i = end - 1;
            } else if (c == '#' || (c == '-' && i + 2 < length && sql.charAt(i + 1) == '-' && Character.isWhitespace(sql.charAt(i + 2)))) {
                int end = sql.indexOf('\n', i);
                end = end < 0 ? length : end;
                out.append(sql, i, end);
                i = end - 1;
            } else if (c == '/' && i + 1 < length && sql.charAt(i + 1) == '*' && !(i + 2 < length && sql.charAt(i + 2) == '!')) {
                int end = sql.indexOf("*/", i + 2);
                end = end < 0 ? length : end + 2;
                out.append(sql, i, end);
                i = end - 1;
            } else if (c == '?') {
                if (next >= values.size()) {
                    throw ErrorCode.WRONG_PARAMETER_COUNT.exception(values.size(), next + 1);
                }
                literal(out, values.get(next++), charset);
            } else {
                out.append(c);
            }
        }
        if (next != values.size()) {
            throw ErrorCode.WRONG_PARAMETER_COUNT.exception(next, values.size());
        }
        return out.toString();
    }

    /** The index just past the quote closing the one at {@code start}. */
    private static int closing(String sql, int start, char quote) {
        int i = start + 1;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\\' && quote != '`') {
                i += 2;
                continue;
            }
            if (c == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return sql.length();
    }

    static void literal(StringBuilder out, SqlValue value, ClientCharset charset) {
        switch (value.type()) {
            case NULL -> out.append("NULL");
            case INTEGER, BIG_INTEGER -> out.append(value);
            case DECIMAL -> out.append(value.decimalValue().toPlainString());
            case FLOAT -> {
                double d = value.doubleValue();
                if (!Double.isFinite(d)) {
                    throw ErrorCode.UNSUPPORTED.exception("a non-finite floating point parameter (" + d + ")");
                }
                // Scientific notation keeps the value a DOUBLE literal, as the client bound it.
                String text = Double.toString(d);
                out.append(text);
                if (text.indexOf('E') < 0) {
                    out.append("e0");
                }
            }
            case BOOLEAN -> out.append(value.booleanValue() ? '1' : '0');
            case BYTES -> hex(out.append("X'"), value.bytes()).append('\'');
            case TEMPORAL -> {
                // A date-time's ISO text with a space for its 'T'; a Duration (TIME) as its own text.
                String text = value.toJava() instanceof Duration ? value.toString() : value.toString().replace('T', ' ');
                hex(out.append("_utf8mb4 X'"), text.getBytes(StandardCharsets.UTF_8)).append('\'');
            }
            case TEXT -> {
                // Bytes that are not valid in the client's character set (setBytes sent as a string, say) stay bytes.
                String text = value.text();
                String introducer = charset.valid(text) ? charset.name() : "binary";
                hex(out.append('_').append(introducer).append(" X'"), charset.encode(text)).append('\'');
            }
        }
    }

    private static StringBuilder hex(StringBuilder out, byte[] bytes) {
        for (byte b : bytes) {
            out.append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
        }
        return out;
    }
}
