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
 * The source session returns every value as its stored bytes ({@code character_set_results=binary},
 * {@code time_zone='+00:00'}); the target session is utf8mb4 with the same time zone.
 *
 * <ul>
 *   <li>{@link #NUMBER}: integers, DECIMAL, DOUBLE, YEAR: the server's text is exact (DOUBLE prints its
 *       shortest round-trip form), written unquoted.</li>
 *   <li>{@link #FLOAT}: FLOAT prints with 6 digits in the text protocol (lossy), so it is read as
 *       {@code CAST(col AS DOUBLE)}, which is exact, and stored back into FLOAT exactly.</li>
 *   <li>{@link #TEMPORAL}: DATE, TIME, DATETIME, TIMESTAMP with their fractions, quoted.</li>
 *   <li>{@link #UTF8_TEXT}: text in utf8mb4/utf8mb3/ascii (and JSON), quoted with backslash escapes.</li>
 *   <li>{@link #BYTES}: everything else (binary strings, BLOB, BIT, text in other character sets,
 *       ENUM/SET of those, geometry): a hexadecimal literal, which stores the bytes unchanged.</li>
 * </ul>
 */
public enum ColumnCodec {
    NUMBER, FLOAT, TEMPORAL, UTF8_TEXT, BYTES;

    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    /** The codec of a column from {@code information_schema.COLUMNS}' DATA_TYPE and CHARACTER_SET_NAME. */
    public static ColumnCodec of(String dataType, String charset) {
        String type = dataType.toLowerCase(Locale.ROOT);
        return switch (type) {
            case "tinyint", "smallint", "mediumint", "int", "integer", "bigint", "decimal", "double", "year" -> NUMBER;
            case "float" -> FLOAT;
            case "date", "time", "datetime", "timestamp" -> TEMPORAL;
            case "char", "varchar", "tinytext", "text", "mediumtext", "longtext", "enum", "set", "json" ->
                    isUtf8(charset) ? UTF8_TEXT : BYTES;
            default -> BYTES;
        };
    }

    private static boolean isUtf8(String charset) {
        return charset != null && switch (charset.toLowerCase(Locale.ROOT)) {
            case "utf8mb4", "utf8mb3", "utf8", "ascii" -> true;
            default -> false;
        };
    }

    /** The select-list expression that reads {@code quotedName} exactly. */
    public String selectExpression(String quotedName) {
        return this == FLOAT ? "CAST(" + quotedName + " AS DOUBLE)" : quotedName;
    }

    /** Appends the stored bytes {@code raw} (null for NULL) as a literal that stores the same value. */
    public void append(StringBuilder sql, byte[] raw) {
        if (raw == null) {
            sql.append("NULL");
            return;
        }
        switch (this) {
            case NUMBER, FLOAT -> appendAscii(sql, raw);
            case TEMPORAL -> appendAscii(sql.append('\''), raw).append('\'');
            case UTF8_TEXT -> appendUtf8(sql, raw);
            case BYTES -> appendHex(sql, raw);
        }
    }

    private static StringBuilder appendAscii(StringBuilder sql, byte[] raw) {
        for (byte b : raw) {
            sql.append((char) (b & 0x7F));
        }
        return sql;
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

    /** Quotes {@code text} with backslash escapes, for a session without {@code NO_BACKSLASH_ESCAPES}. */
    static void appendQuoted(StringBuilder sql, CharSequence text) {
        sql.append('\'');
        int length = text.length();
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
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
}
