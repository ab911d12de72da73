package io.shardgate.replication.stream;

import static java.util.Objects.requireNonNull;

/**
 * One column of a replicated table as the change stream sees it.
 *
 * @param name     the column name
 * @param type     the binlog type, with ENUM and SET resolved from the table map's metadata
 * @param unsigned true for an unsigned integer column
 * @param charset  the MariaDB character set of a text column ({@code utf8mb4}, {@code latin1}, ...);
 *                 null for binary and non-text columns, whose values stay bytes
 * @param generated true for a generated (virtual or stored) column: the target computes it, so it
 *                 is never written
 */
public record Column(String name, ColumnKind type, boolean unsigned, String charset, boolean generated) {
    public Column {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
    }

    /** An ordinary (not generated) column. */
    public Column(String name, ColumnKind type, boolean unsigned, String charset) {
        this(name, type, unsigned, charset, false);
    }
}
