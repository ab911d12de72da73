package io.shardgate.replication.stream.apply;

import io.shardgate.replication.stream.Column;
import io.shardgate.replication.stream.RowChange;
import io.shardgate.replication.stream.TableSchema;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * The SQL that applies a row change, by primary key. Placeholders are bound in this order:
 * insert: every column; update: every column, then the before image's key; delete: the key.
 * Generated columns are left out: the target computes them.
 *
 * <p>A key column of a non-utf8 text column is matched as {@code CONVERT(? USING charset)}: its
 * value travels as bytes, and comparing the column with a binary string would not use the index.
 *
 * <p>{@link Literal} writes the same statements with the values inline, for scripts.
 */
public final class RowStatements {
    private RowStatements() {
    }

    /**
     * One table's statements with literal values, their fixed parts built once. An update sets
     * only the columns whose value changed (the key alone when none did), as MariaDB's own
     * applier does with a minimal row image: less for the target to parse and compare.
     */
    static final class Literal {
        private final List<Column> columns;
        private final String insertPrefix;
        private final String updatePrefix;
        private final String deletePrefix;
        /** "`name` = " per column; null for a generated column, which is never written. */
        private final String[] assignments;
        private final int[] keys;
        /** Per key column: what goes before and after its value in the WHERE clause. */
        private final String[] keyOpen;
        private final String[] keyClose;

        Literal(TableSchema table) {
            this.columns = table.columns();
            StringJoiner names = new StringJoiner(", ");
            assignments = new String[columns.size()];
            for (int i = 0; i < columns.size(); i++) {
                Column column = columns.get(i);
                if (!column.generated()) {
                    names.add(quote(column.name()));
                    assignments[i] = quote(column.name()) + " = ";
                }
            }
            insertPrefix = "INSERT INTO " + name(table) + " (" + names + ") VALUES (";
            updatePrefix = "UPDATE " + name(table) + " SET ";
            deletePrefix = "DELETE FROM " + name(table) + " WHERE ";
            keys = table.keyColumns().stream().mapToInt(Integer::intValue).toArray();
            keyOpen = new String[keys.length];
            keyClose = new String[keys.length];
            for (int k = 0; k < keys.length; k++) {
                String mark = keyMark(columns.get(keys[k]));
                int at = mark.indexOf('?');
                keyOpen[k] = (k == 0 ? "" : " AND ") + quote(columns.get(keys[k]).name()) + " = " + mark.substring(0, at);
                keyClose[k] = mark.substring(at + 1);
            }
        }

        /**
         * Appends the row's statement; returns false, with {@code sql} as it was, when a value
         * has no literal form here (the caller then binds it).
         */
        boolean append(StringBuilder sql, RowChange row) {
            int mark = sql.length();
            boolean written = switch (row.kind()) {
                case INSERT -> insert(sql, row.after());
                case UPDATE -> update(sql, row.before(), row.after());
                case DELETE -> delete(sql, row.before());
            };
            if (!written) {
                sql.setLength(mark);
            }
            return written;
        }

        private boolean insert(StringBuilder sql, Object[] after) {
            sql.append(insertPrefix);
            boolean first = true;
            for (int i = 0; i < after.length; i++) {
                if (assignments[i] != null) {
                    if (!first) {
                        sql.append(", ");
                    }
                    first = false;
                    if (!SqlLiteral.append(sql, after[i])) {
                        return false;
                    }
                }
            }
            sql.append(')');
            return true;
        }

        private boolean update(StringBuilder sql, Object[] before, Object[] after) {
            sql.append(updatePrefix);
            boolean first = true;
            for (int i = 0; i < after.length; i++) {
                if (assignments[i] != null && !same(before[i], after[i])) {
                    if (!first) {
                        sql.append(", ");
                    }
                    first = false;
                    sql.append(assignments[i]);
                    if (!SqlLiteral.append(sql, after[i])) {
                        return false;
                    }
                }
            }
            if (first) {
                // Nothing changed: a no-op assignment keeps the statement valid and still finds the row.
                int key = keys[0];
                sql.append(quote(columns.get(key).name())).append(" = ").append(quote(columns.get(key).name()));
            }
            sql.append(" WHERE ");
            return where(sql, before);
        }

        private boolean delete(StringBuilder sql, Object[] before) {
            sql.append(deletePrefix);
            return where(sql, before);
        }

        private boolean where(StringBuilder sql, Object[] before) {
            for (int k = 0; k < keys.length; k++) {
                sql.append(keyOpen[k]);
                if (!SqlLiteral.append(sql, before[keys[k]])) {
                    return false;
                }
                sql.append(keyClose[k]);
            }
            return true;
        }

        private static boolean same(Object a, Object b) {
            if (a instanceof byte[] x && b instanceof byte[] y) {
                return Arrays.equals(x, y);
            }
            return Objects.equals(a, b);
        }
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
            where.add(quote(column.name()) + " = " + keyMark(column));
        }
        return where.toString();
    }

    /** The placeholder of a key column's value in a WHERE clause. */
    private static String keyMark(Column column) {
        String charset = column.charset();
        return charset != null && !charset.toLowerCase(Locale.ROOT).startsWith("utf8")
                && !charset.equalsIgnoreCase("binary") && charset.matches("[A-Za-z0-9_]+")
                ? "CONVERT(? USING " + charset + ")" : "?";
    }

    static String name(TableSchema table) {
        return quote(table.schema()) + "." + quote(table.table());
    }

    static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }
}
