package io.shardgate.replication.copy;

import io.shardgate.router.collation.Collations;
import io.shardgate.router.value.SqlValue;
import io.shardgate.router.vindex.ShardKey;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;

import static java.util.Objects.requireNonNull;

/**
 * A source table's columns as the copy reads and writes them (generated columns left out: the
 * target computes them), its primary key, and where its shard key is.
 *
 * @param table     the table
 * @param names     the copied columns, in table order
 * @param codecs    per copied column, how its value travels
 * @param keys      the primary key's columns, in key order
 * @param keyIndex  per key column, its index in {@code names}
 * @param shardKey  the shard key's index in {@code names}; -1 for a whole-table move
 * @param shardKind the shard key's ordering kind (how its bytes become a value); null without one
 * @param shardCharset the shard key's character set when it is a string column; null otherwise
 */
public record TableShape(CopyTable table, List<String> names, List<ColumnCodec> codecs, List<KeyColumn> keys,
                         int[] keyIndex, int shardKey, KeyColumn.Kind shardKind, String shardCharset) {
    public TableShape {
        requireNonNull(table, "table is null");
        names = List.copyOf(names);
        codecs = List.copyOf(codecs);
        keys = List.copyOf(keys);
        if (keys.isEmpty()) {
            throw new CopyException("table " + table.qualifiedName() + " has no primary key: the copy reads in"
                    + " primary-key order and the targets need one to apply changes by key");
        }
    }

    /** Reads the shape of {@code table} from the source's information_schema. */
    public static TableShape read(Connection source, CopyTable table) throws SQLException {
        List<String> names = new ArrayList<>();
        List<ColumnCodec> codecs = new ArrayList<>();
        List<String[]> meta = new ArrayList<>();
        try (PreparedStatement columns = source.prepareStatement("SELECT COLUMN_NAME, DATA_TYPE, CHARACTER_SET_NAME,"
                + " COLLATION_NAME, IS_GENERATED FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
                + " ORDER BY ORDINAL_POSITION")) {
            columns.setString(1, table.schema());
            columns.setString(2, table.table());
            try (ResultSet rows = columns.executeQuery()) {
                while (rows.next()) {
                    if ("ALWAYS".equalsIgnoreCase(rows.getString(5))) {
                        continue;
                    }
                    names.add(rows.getString(1));
                    codecs.add(ColumnCodec.of(rows.getString(2), rows.getString(3)));
                    meta.add(new String[] {rows.getString(2), rows.getString(3), rows.getString(4)});
                }
            }
        }
        if (names.isEmpty()) {
            throw new CopyException("table " + table.qualifiedName() + " does not exist on the source");
        }
        List<KeyColumn> keys = new ArrayList<>();
        List<Integer> keyIndex = new ArrayList<>();
        try (PreparedStatement primary = source.prepareStatement("SELECT COLUMN_NAME FROM information_schema.STATISTICS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND INDEX_NAME = 'PRIMARY' ORDER BY SEQ_IN_INDEX")) {
            primary.setString(1, table.schema());
            primary.setString(2, table.table());
            try (ResultSet rows = primary.executeQuery()) {
                while (rows.next()) {
                    int index = indexOf(names, rows.getString(1), table);
                    String[] m = meta.get(index);
                    keys.add(keyColumn(table, names.get(index), m[0], m[1], m[2]));
                    keyIndex.add(index);
                }
            }
        }
        int shardKey = -1;
        KeyColumn.Kind shardKind = null;
        String shardCharset = null;
        if (table.shardKey() != null) {
            shardKey = indexOf(names, table.shardKey(), table);
            String[] m = meta.get(shardKey);
            shardKind = kindOf(m[0]);
            shardCharset = m[1];
            if (shardKind == null || shardKind == KeyColumn.Kind.DECIMAL || shardKind == KeyColumn.Kind.TEMPORAL) {
                throw new CopyException("table " + table.qualifiedName() + ": shard key " + table.shardKey()
                        + " is " + m[0] + "; a hash vindex key is an integer, string or binary column");
            }
        }
        return new TableShape(table, names, codecs, keys, keyIndex.stream().mapToInt(Integer::intValue).toArray(),
                shardKey, shardKind, shardCharset);
    }

    private static int indexOf(List<String> names, String name, CopyTable table) {
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        throw new CopyException("table " + table.qualifiedName() + " has no stored column " + name);
    }

    private static KeyColumn.Kind kindOf(String dataType) {
        return switch (dataType.toLowerCase(Locale.ROOT)) {
            case "tinyint", "smallint", "mediumint", "int", "integer", "bigint", "year" -> KeyColumn.Kind.INTEGER;
            case "decimal" -> KeyColumn.Kind.DECIMAL;
            case "date", "time", "datetime", "timestamp" -> KeyColumn.Kind.TEMPORAL;
            case "char", "varchar", "tinytext", "text", "mediumtext", "longtext" -> KeyColumn.Kind.STRING;
            case "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob" -> KeyColumn.Kind.BINARY;
            default -> null;
        };
    }

    private static KeyColumn keyColumn(CopyTable table, String name, String dataType, String charset, String collation) {
        KeyColumn.Kind kind = kindOf(dataType);
        if (kind == null) {
            throw new CopyException("table " + table.qualifiedName() + ": primary key column " + name + " is " + dataType
                    + "; the copy orders keys of integer, decimal, temporal, string and binary columns");
        }
        if (kind != KeyColumn.Kind.STRING) {
            return new KeyColumn(name, kind, null, null);
        }
        return new KeyColumn(name, kind, charset, Collations.byName(collation).orElseThrow(() -> new CopyException(
                "table " + table.qualifiedName() + ": primary key column " + name + " uses collation " + collation
                        + ", which the copy cannot order; supported: " + Collations.names())));
    }

    public static String quote(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    public String qualified() {
        return quote(table.schema()) + "." + quote(table.table());
    }

    /** {@code SELECT ... WHERE pk > last ORDER BY pk LIMIT n} (no bound for the first chunk). */
    public String chunkQuery(List<PkValue> last, int limit) {
        StringJoiner select = new StringJoiner(", ", "SELECT ", " FROM " + qualified() + " FORCE INDEX (PRIMARY)");
        for (int i = 0; i < names.size(); i++) {
            select.add(codecs.get(i).selectExpression(quote(names.get(i))));
        }
        StringBuilder sql = new StringBuilder(select.toString());
        if (last != null) {
            sql.append(" WHERE ").append(after(last));
        }
        StringJoiner order = new StringJoiner(", ", " ORDER BY ", "");
        keys.forEach(key -> order.add(quote(key.name())));
        return sql.append(order).append(" LIMIT ").append(limit).toString();
    }

    /** {@code (a > 1) OR (a = 1 AND b > 'x')}: the rows after {@code last} in key order, as ranges the optimizer uses. */
    public String after(List<PkValue> last) {
        StringJoiner or = new StringJoiner(" OR ", "(", ")");
        for (int i = 0; i < keys.size(); i++) {
            StringBuilder term = new StringBuilder("(");
            for (int j = 0; j < i; j++) {
                term.append(quote(keys.get(j).name())).append(" = ");
                keys.get(j).appendLiteral(term, last.get(j));
                term.append(" AND ");
            }
            term.append(quote(keys.get(i).name())).append(" > ");
            keys.get(i).appendLiteral(term, last.get(i));
            or.add(term.append(')'));
        }
        return or.toString();
    }

    /** {@code INSERT INTO t (cols) VALUES }. */
    public String insertPrefix() {
        StringJoiner columns = new StringJoiner(", ", "INSERT INTO " + qualified() + " (", ") VALUES ");
        names.forEach(name -> columns.add(quote(name)));
        return columns.toString();
    }

    /** The key of a row read from the source. */
    public List<PkValue> keyOf(Object[] row) {
        List<PkValue> key = new ArrayList<>(keys.size());
        for (int k = 0; k < keys.size(); k++) {
            key.add(keys.get(k).fromRaw(row[keyIndex[k]]));
        }
        return key;
    }

    /** The shard key of a row read from the source, as the router's hash vindex takes it. */
    public ShardKey shardKeyOf(Object[] row) {
        Object raw = row[shardKey];
        if (raw == null) {
            throw new CopyException("table " + table.qualifiedName() + ": a row has a NULL shard key "
                    + table.shardKey() + "; no shard owns it");
        }
        SqlValue value = switch (shardKind) {
            case INTEGER -> SqlValue.ofInteger(new BigInteger(raw.toString()));
            case STRING -> SqlValue.ofText(raw instanceof byte[] bytes
                    ? new String(bytes, KeyColumn.javaCharset(shardCharset)) : raw.toString());
            default -> raw instanceof byte[] bytes ? SqlValue.ofBytes(bytes) : SqlValue.ofText(raw.toString());
        };
        return shardKey(value);
    }

    /** The shard key of a change-stream value (the types of {@link io.shardgate.replication.stream.RowChange}). */
    public ShardKey shardKeyOf(Object streamValue) {
        if (streamValue == null) {
            throw new CopyException("table " + table.qualifiedName() + ": a change has a NULL shard key");
        }
        return shardKey(SqlValue.of(streamValue));
    }

    private ShardKey shardKey(SqlValue value) {
        return table.vindex().keyType().store(value).orElseThrow(() -> new CopyException("table "
                + table.qualifiedName() + ": shard key value " + value + " is not a " + table.vindex().keyType()));
    }
}
