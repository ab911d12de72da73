package io.shardgate.replication.stream;

import java.util.Arrays;
import java.util.StringJoiner;

import static java.util.Objects.requireNonNull;

/**
 * One changed row. Values are already converted for JDBC: {@code Long}/{@code Integer},
 * {@code BigInteger} (unsigned BIGINT above Long.MAX_VALUE), {@code BigDecimal}, {@code Float},
 * {@code Double}, {@code String} (text and temporal columns, temporal ones in SQL literal form,
 * TIMESTAMP in UTC), {@code byte[]} (binary columns), or null.
 *
 * @param table  the table and its columns
 * @param kind   insert, update or delete
 * @param before the full before image (update, delete); null for an insert
 * @param after  the full after image (insert, update); null for a delete
 */
public record RowChange(TableSchema table, Kind kind, Object[] before, Object[] after) implements Change {
    public enum Kind { INSERT, UPDATE, DELETE }

    public RowChange {
        requireNonNull(table, "table is null");
        requireNonNull(kind, "kind is null");
        if ((kind == Kind.INSERT) != (before == null) || (kind == Kind.DELETE) != (after == null)) {
            throw new IllegalArgumentException(kind + " of " + table.qualifiedName() + " has the wrong images");
        }
    }

    @Override
    public String schema() {
        return table.schema();
    }

    /** The image that identifies the row: before for updates and deletes, after for inserts. */
    public Object[] keyImage() {
        return before != null ? before : after;
    }

    /** The primary key as {@code (a=1, b='x')}, for error messages. */
    public String describeKey() {
        StringJoiner joiner = new StringJoiner(", ", "(", ")");
        Object[] image = keyImage();
        for (int index : table.keyColumns()) {
            Object value = image[index];
            String text = value instanceof byte[] bytes ? "0x" + java.util.HexFormat.of().formatHex(bytes)
                    : value instanceof String s ? "'" + s + "'" : String.valueOf(value);
            joiner.add(table.columns().get(index).name() + "=" + text);
        }
        return joiner.toString();
    }

    @Override
    public String toString() {
        return kind + " " + table.qualifiedName() + " " + describeKey()
                + (after != null ? " " + Arrays.deepToString(after) : "");
    }
}
