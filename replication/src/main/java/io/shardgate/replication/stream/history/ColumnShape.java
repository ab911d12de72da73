package io.shardgate.replication.stream.history;

import static java.util.Objects.requireNonNull;

/**
 * One column of a table as the schema history keeps it: what decoding and applying a row needs
 * beyond the binlog's own column types.
 *
 * @param name      the column name (column names compare case-insensitively)
 * @param unsigned  true for an unsigned number
 * @param charset   the character set of a text column ({@code utf8mb4}, {@code latin1}, ...); null
 *                  for binary and non-text columns
 * @param generated true for a virtual or stored generated column (the target computes it)
 * @param nullable  true unless declared NOT NULL (or part of the primary key)
 */
public record ColumnShape(String name, boolean unsigned, String charset, boolean generated, boolean nullable) {
    public ColumnShape {
        requireNonNull(name, "name is null");
    }

    public ColumnShape renamed(String newName) {
        return new ColumnShape(newName, unsigned, charset, generated, nullable);
    }

    public ColumnShape withCharset(String newCharset) {
        return new ColumnShape(name, unsigned, newCharset, generated, nullable);
    }

    boolean named(String other) {
        return name.equalsIgnoreCase(other);
    }
}
