package io.shardgate.storage.checksum;

import static java.util.Objects.requireNonNull;

/** A {@code schema.table} name. */
public record TableName(String schema, String table) {
    public TableName {
        requireNonNull(schema, "schema is null");
        requireNonNull(table, "table is null");
        if (schema.isEmpty() || table.isEmpty()) {
            throw new IllegalArgumentException("schema and table must not be empty");
        }
    }

    /** Parses {@code schema.table}, either part optionally in backticks. */
    public static TableName parse(String qualified) {
        requireNonNull(qualified, "qualified is null");
        String text = qualified.trim();
        int dot = splitPoint(text);
        if (dot < 0) {
            throw new IllegalArgumentException("table '" + qualified + "' must be written schema.table");
        }
        return new TableName(unquote(text.substring(0, dot)), unquote(text.substring(dot + 1)));
    }

    /** The dot between schema and table, outside backticks; -1 when there is none or more than one. */
    private static int splitPoint(String text) {
        int dot = -1;
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '`') {
                quoted = !quoted;
            } else if (c == '.' && !quoted) {
                if (dot >= 0) {
                    return -1;
                }
                dot = i;
            }
        }
        return dot;
    }

    private static String unquote(String part) {
        String p = part.trim();
        if (p.length() >= 2 && p.startsWith("`") && p.endsWith("`")) {
            return p.substring(1, p.length() - 1).replace("``", "`");
        }
        return p;
    }

    /** An identifier in backticks, with backticks inside doubled. */
    static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }

    /** {@code `schema`.`table`} for SQL. */
    public String sql() {
        return quote(schema) + "." + quote(table);
    }

    @Override
    public String toString() {
        return schema + "." + table;
    }
}
