package io.shardgate.replication.stream;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The shape of a replicated table at the point of the stream where a row event used it.
 *
 * @param schema      the database
 * @param table       the table name
 * @param columns     the columns in table order, as the row images carry them
 * @param keyColumns  indexes into {@code columns} of the primary key; never empty
 */
public record TableSchema(String schema, String table, List<Column> columns, List<Integer> keyColumns) {
    public TableSchema {
        requireNonNull(schema, "schema is null");
        requireNonNull(table, "table is null");
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        keyColumns = List.copyOf(requireNonNull(keyColumns, "keyColumns is null"));
        if (keyColumns.isEmpty()) {
            throw new IllegalArgumentException("table " + schema + "." + table + " has no primary key");
        }
        for (int index : keyColumns) {
            if (index < 0 || index >= columns.size()) {
                throw new IllegalArgumentException("key column " + index + " outside the " + columns.size()
                        + " columns of " + schema + "." + table);
            }
        }
    }

    public String qualifiedName() {
        return schema + "." + table;
    }

    public List<String> columnNames() {
        List<String> names = new ArrayList<>(columns.size());
        columns.forEach(column -> names.add(column.name()));
        return names;
    }
}
