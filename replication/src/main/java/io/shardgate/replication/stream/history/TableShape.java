package io.shardgate.replication.stream.history;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A table's columns in table order and its primary key, as of one point of the change stream.
 *
 * @param name           the table
 * @param columns        the columns in table order, as row images carry them
 * @param primaryKey     the primary key's column names in key order; empty when it has none
 * @param defaultCharset the table's default character set, given to text columns added without
 *                       one; null when not known (the database's default applies)
 */
public record TableShape(TableName name, List<ColumnShape> columns, List<String> primaryKey, String defaultCharset) {
    public TableShape {
        requireNonNull(name, "name is null");
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        primaryKey = List.copyOf(requireNonNull(primaryKey, "primaryKey is null"));
    }

    /** The index of the column named {@code column} (case-insensitive), or -1. */
    public int indexOf(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).named(column)) {
                return i;
            }
        }
        return -1;
    }

    public List<String> columnNames() {
        List<String> names = new ArrayList<>(columns.size());
        columns.forEach(column -> names.add(column.name()));
        return names;
    }

    public TableShape renamedTo(TableName newName) {
        return new TableShape(newName, columns, primaryKey, defaultCharset);
    }
}
