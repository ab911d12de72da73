package io.shardgate.replication.stream.history;

import java.util.ArrayList;
import java.util.List;

/**
 * A table shape as text, for the target's {@code _shardgate.schema_history}: one line per field,
 * tab-separated, with {@code %}, tab, CR and LF escaped as {@code %25}, {@code %09}, {@code %0D},
 * {@code %0A} (a quoted MariaDB identifier may hold any of them).
 *
 * <pre>
 * v1
 * charset	utf8mb4          (or "-" when unknown)
 * key	id	k                (the primary key's columns)
 * col	id	U	-	-	-    (name, U=unsigned, charset or -, G=generated, N=nullable)
 * </pre>
 */
public final class ShapeCodec {
    private static final String NONE = "-";

    private ShapeCodec() {
    }

    public static String encode(TableShape shape) {
        StringBuilder text = new StringBuilder("v1\ncharset\t").append(field(shape.defaultCharset())).append("\nkey");
        shape.primaryKey().forEach(column -> text.append('\t').append(escape(column)));
        for (ColumnShape column : shape.columns()) {
            text.append("\ncol\t").append(escape(column.name()))
                    .append('\t').append(column.unsigned() ? "U" : NONE)
                    .append('\t').append(field(column.charset()))
                    .append('\t').append(column.generated() ? "G" : NONE)
                    .append('\t').append(column.nullable() ? "N" : NONE);
        }
        return text.toString();
    }

    public static TableShape decode(TableName name, String text) {
        String[] lines = text.split("\n", -1);
        if (lines.length < 3 || !lines[0].equals("v1")) {
            throw new IllegalArgumentException("not a stored table shape of " + name + ": " + abbreviate(text));
        }
        String charset = null;
        List<String> key = new ArrayList<>();
        List<ColumnShape> columns = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            String[] fields = lines[i].split("\t", -1);
            int expected = switch (fields[0]) {
                case "charset" -> 2;
                case "col" -> 6;
                default -> 1;
            };
            if (fields.length < expected) {
                throw new IllegalArgumentException("stored shape of " + name + " has a short line: " + abbreviate(lines[i]));
            }
            switch (fields[0]) {
                case "charset" -> charset = value(fields[1]);
                case "key" -> {
                    for (int k = 1; k < fields.length; k++) {
                        key.add(unescape(fields[k]));
                    }
                }
                case "col" -> columns.add(new ColumnShape(unescape(fields[1]), fields[2].equals("U"), value(fields[3]),
                        fields[4].equals("G"), fields[5].equals("N")));
                default -> throw new IllegalArgumentException("stored shape of " + name + " has an unknown line: "
                        + abbreviate(lines[i]));
            }
        }
        return new TableShape(name, columns, key, charset);
    }

    private static String field(String value) {
        return value == null ? NONE : escape(value);
    }

    private static String value(String field) {
        return field.equals(NONE) ? null : unescape(field);
    }

    static String escape(String value) {
        if (value.equals(NONE)) {
            return "%2D";
        }
        StringBuilder out = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '%' -> out.append("%25");
                case '\t' -> out.append("%09");
                case '\n' -> out.append("%0A");
                case '\r' -> out.append("%0D");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    static String unescape(String field) {
        if (field.indexOf('%') < 0) {
            return field;
        }
        StringBuilder out = new StringBuilder(field.length());
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '%' && i + 2 < field.length()) {
                out.append((char) Integer.parseInt(field.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 77) + "...";
    }
}
