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
 */
public record Column(String name, ColumnKind type, boolean unsigned, String charset) {
    public Column {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
    }
}
