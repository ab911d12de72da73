package io.shardgate.replication.stream.apply;

import io.shardgate.replication.stream.Column;
import io.shardgate.replication.stream.RowChange;
import io.shardgate.replication.stream.TableSchema;

import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * The SQL that applies a row change, by primary key. Placeholders are bound in this order:
 * insert: every column; update: every column, then the before image's key; delete: the key.
 * Generated columns are left out: the target computes them.
 *
 * <p>A key column of a non-utf8 text column is matched as {@code CONVERT(? USING charset)}: its
 * value travels as bytes, and comparing the column with a binary string would not use the index.
 */
public final class RowStatements {
    private RowStatements() {
    }

    public static String sql(RowChange row) {
        TableSchema table = row.table();
        return switch (row.kind()) {
            case INSERT -> insert(table);
            case UPDATE -> update(table);
            case DELETE -> delete(table);
        };
    }

    static String insert(TableSchema table) {
        StringJoiner names = new StringJoiner(", ");
        StringJoiner marks = new StringJoiner(", ");
        for (Column column : table.columns()) {
            if (!column.generated()) {
                names.add(quote(column.name()));
                marks.add("?");
            }
        }
        return "INSERT INTO " + name(table) + " (" + names + ") VALUES (" + marks + ")";
    }

    static String update(TableSchema table) {
        StringJoiner set = new StringJoiner(", ");
        for (Column column : table.columns()) {
            if (!column.generated()) {
                set.add(quote(column.name()) + " = ?");
            }
        }
        return "UPDATE " + name(table) + " SET " + set + " WHERE " + where(table);
    }

    static String delete(TableSchema table) {
        return "DELETE FROM " + name(table) + " WHERE " + where(table);
    }

    private static String where(TableSchema table) {
        StringJoiner where = new StringJoiner(" AND ");
        List<Column> columns = table.columns();
        for (int index : table.keyColumns()) {
            Column column = columns.get(index);
            String charset = column.charset();
            String mark = charset != null && !charset.toLowerCase(Locale.ROOT).startsWith("utf8")
                    && !charset.equalsIgnoreCase("binary") && charset.matches("[A-Za-z0-9_]+")
                    ? "CONVERT(? USING " + charset + ")" : "?";
            where.add(quote(column.name()) + " = " + mark);
        }
        return where.toString();
    }

    static String name(TableSchema table) {
        return quote(table.schema()) + "." + quote(table.table());
    }

    static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }
}
