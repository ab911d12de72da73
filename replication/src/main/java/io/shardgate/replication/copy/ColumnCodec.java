package io.shardgate.replication.copy;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Locale;

/**
 * How the copy reads a column from the source and writes its value on a target, byte for byte.
 * Every value is read as its stored bytes: the source session has {@code time_zone='+00:00'} and
 * utf8mb4 results (Connector/J allows no other), which leaves utf8 text, binary strings, numbers and
 * temporal text as stored; text in another character set is read as {@code CAST(col AS BINARY)},
 * so the server does not convert it. The target session is utf8mb4 with the same time zone.
 *
 * <ul>
 *   <li>{@link #NUMBER}: integers, DECIMAL, DOUBLE, YEAR: the server's text is exact (DOUBLE prints its
 *       shortest round-trip form), written unquoted.</li>
 *   <li>{@link #FLOAT}: FLOAT prints with 6 digits in the text protocol (lossy), so it is read as
 *       {@code CAST(col AS DOUBLE)}, which is exact, and stored back into FLOAT exactly.</li>
 *   <li>{@link #TEMPORAL}: DATE, TIME, DATETIME, TIMESTAMP with their fractions, quoted.</li>
 *   <li>{@link #UTF8_TEXT}: text in utf8mb4/utf8mb3/ascii (and JSON), quoted with backslash escapes.</li>
 *   <li>{@link #BYTES}: binary strings, BLOB, BIT, geometry: a hexadecimal literal, which stores the
 *       bytes unchanged.</li>
 *   <li>{@link #OTHER_TEXT}: text (and ENUM/SET) in a character set other than utf8, read as
 *       {@code CAST(col AS BINARY)} and written as a hexadecimal literal: the bytes unchanged.</li>
 *   <li>{@link #SINGLE_BYTE_TEXT}: as {@link #OTHER_TEXT}, for a single-byte character set whose
 *       bytes below 0x80 are ASCII (latin1, ...): a value of such bytes only is quoted like utf8
 *       text (the same bytes after the server's conversion, half the size of hex), others go as hex.</li>
 * </ul>
 */
public enum ColumnCodec {
    NUMBER, FLOAT, TEMPORAL, UTF8_TEXT, BYTES, OTHER_TEXT, SINGLE_BYTE_TEXT;

    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    /** The codec of a column from {@code information_schema.COLUMNS}' DATA_TYPE and CHARACTER_SET_NAME. */
    public static ColumnCodec of(String dataType, String charset) {
        String type = dataType.toLowerCase(Locale.ROOT);
        return switch (type) {
            case "tinyint", "smallint", "mediumint", "int", "integer", "bigint", "decimal", "double", "year" -> NUMBER;
            case "float" -> FLOAT;
            case "date", "time", "datetime", "timestamp" -> TEMPORAL;
            case "char", "varchar", "tinytext", "text", "mediumtext", "longtext", "enum", "set", "json" ->
                    isUtf8(charset) ? UTF8_TEXT : isAsciiSingleByte(charset) ? SINGLE_BYTE_TEXT : OTHER_TEXT;
            default -> BYTES;
        };
    }

    private static boolean isUtf8(String charset) {
        return charset != null && switch (charset.toLowerCase(Locale.ROOT)) {
            case "utf8mb4", "utf8mb3", "utf8", "ascii" -> true;
            default -> false;
        };
    }

    /** Single-byte character sets whose bytes 0x00-0x7F are the ASCII characters (not swe7, not multi-byte ones). */
    private static boolean isAsciiSingleByte(String charset) {
        return charset != null && switch (charset.toLowerCase(Locale.ROOT)) {
            case "latin1", "latin2", "latin5", "latin7", "cp1250", "cp1251", "cp1256", "cp1257", "greek", "hebrew",
                 "cp850", "cp852", "cp866", "koi8r", "koi8u", "dec8" -> true;
            default -> false;
        };
    }

    /** The select-list expression that reads {@code quotedName} exactly. */
    public String selectExpression(String quotedName) {
        return switch (this) {
            case FLOAT -> "CAST(" + quotedName + " AS DOUBLE)";
            case OTHER_TEXT, SINGLE_BYTE_TEXT -> "CAST(" + quotedName + " AS BINARY)";
            default -> quotedName;
        };
    }

    /** Whether a chunk reads this column's value as bytes ({@code getBytes}); else as text ({@code getString}). */
    public boolean readsBytes() {
        return this == BYTES || this == OTHER_TEXT || this == SINGLE_BYTE_TEXT;
    }

    /**
     * Appends a value as a chunk read it (a {@code String} or, where {@link #readsBytes}, a
     * {@code byte[]}; null for NULL) as a literal that stores the same value.
     */
    public void append(StringBuilder sql, Object value) {
        if (value == null) {
            sql.append("NULL");
            return;
        }
        if (value instanceof byte[] raw) {
            if (this == UTF8_TEXT) {
                appendUtf8(sql, raw);
            } else if (this == SINGLE_BYTE_TEXT && isAscii(raw)) {
                appendQuotedAscii(sql, raw);
            } else {
                appendHex(sql, raw);
            }
            return;
        }
        String text = value.toString();
        switch (this) {
            case NUMBER, FLOAT -> appendNumber(sql, text);
            case TEMPORAL -> appendTemporal(sql, text);
            case UTF8_TEXT -> appendQuoted(sql, text);
            case BYTES, OTHER_TEXT, SINGLE_BYTE_TEXT -> appendHex(sql, text.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** A number as the server printed it; anything else is refused rather than written into SQL. */
    private static void appendNumber(StringBuilder sql, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!(c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E')) {
                throw new IllegalArgumentException("not a number: '" + text + "'");
            }
        }
        sql.append(text);
    }

    private static void appendTemporal(StringBuilder sql, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!(c >= '0' && c <= '9' || c == '-' || c == ':' || c == '.' || c == ' ')) {
                throw new IllegalArgumentException("not a temporal value: '" + text + "'");
            }
        }
        sql.append('\'').append(text).append('\'');
    }

    static void appendHex(StringBuilder sql, byte[] raw) {
        if (raw.length == 0) {
            sql.append("''");
            return;
        }
        sql.ensureCapacity(sql.length() + 3 + 2 * raw.length);
        HEX.formatHex(sql.append("X'"), raw).append('\'');
    }

    /** Text that is not valid UTF-8 (it cannot be in a strict utf8mb4 column, but never guess) goes as hex. */
    private static void appendUtf8(StringBuilder sql, byte[] raw) {
        CharBuffer text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(raw));
        } catch (CharacterCodingException e) {
            appendHex(sql, raw);
            return;
        }
        appendQuoted(sql, text);
    }

    private static boolean isAscii(byte[] raw) {
        for (byte b : raw) {
            if (b < 0) {
                return false;
            }
        }
        return true;
    }

    private static void appendQuotedAscii(StringBuilder sql, byte[] raw) {
        sql.ensureCapacity(sql.length() + raw.length + 2);
        sql.append('\'');
        for (byte b : raw) {
            char c = (char) b;
            switch (c) {
                case '\\' -> sql.append("\\\\");
                case '\'' -> sql.append("\\'");
                case 0 -> sql.append("\\0");
                case '\n' -> sql.append("\\n");
                case '\r' -> sql.append("\\r");
                case 26 -> sql.append("\\Z");
                default -> sql.append(c);
            }
        }
        sql.append('\'');
    }

    /**
     * Quotes {@code text} with backslash escapes, for a session without {@code NO_BACKSLASH_ESCAPES}; the runs between
     * characters that need an escape are appended whole.
     */
    static void appendQuoted(StringBuilder sql, CharSequence text) {
        sql.append('\'');
        int length = text.length();
        int run = 0;
        for (int i = 0; i < length; i++) {
            String escaped = escape(text.charAt(i));
            if (escaped != null) {
                sql.append(text, run, i).append(escaped);
                run = i + 1;
            }
        }
        sql.append(text, run, length).append('\'');
    }

    /** The escape sequence of {@code c}; null when it goes as it is. */
    private static String escape(char c) {
        return switch (c) {
            case '\\' -> "\\\\";
            case '\'' -> "\\'";
            case 0 -> "\\0";
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case 26 -> "\\Z";
            default -> null;
        };
    }
}
