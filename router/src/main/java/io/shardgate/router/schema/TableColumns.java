package io.shardgate.router.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The columns of one table on one shard, in their order: what {@code INSERT INTO t VALUES (...)} without a
 * column list fills, generated columns included (MariaDB expects a value or DEFAULT for each of them too).
 * Immutable.
 *
 * @param schema  the schema (database) the table is in, as the server names it
 * @param table   the table's name, as the server names it
 * @param columns its columns, by position from 1 with no gap
 */
public record TableColumns(String schema, String table, List<Column> columns) {

    public TableColumns {
        requireNonNull(schema, "schema is null");
        requireNonNull(table, "table is null");
        columns = List.copyOf(columns);
        if (columns.isEmpty()) {
            throw new IllegalArgumentException(schema + "." + table + ": no columns");
        }
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).position() != i + 1) {
                throw new IllegalArgumentException(schema + "." + table + ": column " + columns.get(i).name() + " at position "
                        + columns.get(i).position() + " (expected: " + (i + 1) + ")");
            }
        }
    }

    /** The column names in order. */
    public List<String> names() {
        return columns.stream().map(Column::name).toList();
    }

    /** The column named {@code name}, ignoring case. */
    public Optional<Column> column(String name) {
        return columns.stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst();
    }

    /**
     * Whether {@code other} has the same columns for a statement that lists them implicitly: the same names
     * (ignoring case) and generated kinds, in the same order. Types and collations may differ.
     */
    public boolean sameShape(TableColumns other) {
        if (other.columns.size() != columns.size()) {
            return false;
        }
        for (int i = 0; i < columns.size(); i++) {
            if (!columns.get(i).sameShape(other.columns.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** How {@code other} differs from these columns, in words (empty when they are equal). */
    public List<String> differences(TableColumns other) {
        List<String> differences = new ArrayList<>();
        int common = Math.min(columns.size(), other.columns.size());
        for (int i = 0; i < common; i++) {
            Column mine = columns.get(i);
            Column theirs = other.columns.get(i);
            if (!mine.describe().equals(theirs.describe())) {
                differences.add("column " + (i + 1) + " is " + theirs.describe() + " instead of " + mine.describe());
            }
            else if (!mine.equals(theirs)) {
                differences.add("column " + (i + 1) + " (" + mine.name() + ") has another default or AUTO_INCREMENT");
            }
        }
        for (int i = common; i < other.columns.size(); i++) {
            differences.add("extra column " + other.columns.get(i).describe());
        }
        for (int i = common; i < columns.size(); i++) {
            differences.add("no column " + columns.get(i).describe());
        }
        return differences;
    }
}
