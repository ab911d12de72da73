package io.shardgate.replication.stream;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventMetadata;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Column names, key, signedness and character sets of source tables.
 *
 * <p>Names and the primary key come from the table map's metadata when the source logs it
 * ({@code binlog_row_metadata=FULL}): those describe the table exactly as the row was written.
 * Otherwise they come from the source's {@code information_schema}, read when a table is first
 * seen and read again after DDL on its schema; a stream that lags behind a DDL then sees the
 * table's current shape, and a row whose column count differs stops the stream. Signedness and
 * character sets always come from {@code information_schema}, matched by column name.
 */
public final class SourceSchemaCatalog implements TableSchemaSource, AutoCloseable {
    private final ServerEndpoint source;
    private final Map<String, List<InfoColumn>> cache = new HashMap<>();
    private Connection connection;

    public SourceSchemaCatalog(ServerEndpoint source) {
        this.source = requireNonNull(source, "source is null");
    }

    @Override
    public TableSchema resolve(TableMapEventData map) {
        String schema = map.getDatabase();
        String table = map.getTable();
        byte[] types = map.getColumnTypes();
        int[] meta = map.getColumnMetadata();
        TableMapEventMetadata extra = map.getEventMetadata();
        List<String> metaNames = extra == null ? null : extra.getColumnNames();
        List<InfoColumn> info = info(schema, table);
        Map<String, InfoColumn> infoByName = new HashMap<>();
        info.forEach(c -> infoByName.put(c.name().toLowerCase(Locale.ROOT), c));

        List<String> names;
        if (metaNames != null && metaNames.size() == types.length) {
            names = metaNames;
        } else if (info.size() == types.length) {
            names = info.stream().map(InfoColumn::name).toList();
        } else {
            throw new StreamException("table " + schema + "." + table + " has " + info.size()
                    + " columns on the source now but the binlog row has " + types.length
                    + "; the source does not log column names (set binlog_row_metadata=FULL on the source)");
        }
        List<Column> columns = new ArrayList<>(types.length);
        for (int i = 0; i < types.length; i++) {
            ColumnKind kind = kind(types[i] & 0xFF, meta[i]);
            InfoColumn column = infoByName.get(names.get(i).toLowerCase(Locale.ROOT));
            columns.add(new Column(names.get(i), kind, column != null && column.unsigned(),
                    column == null ? null : column.charset(), column != null && column.generated()));
        }
        List<Integer> key = new ArrayList<>();
        if (extra != null && extra.getSimplePrimaryKeys() != null && !extra.getSimplePrimaryKeys().isEmpty()) {
            key.addAll(extra.getSimplePrimaryKeys());
        } else if (extra != null && extra.getPrimaryKeysWithPrefix() != null && !extra.getPrimaryKeysWithPrefix().isEmpty()) {
            key.addAll(extra.getPrimaryKeysWithPrefix().keySet());
        } else {
            for (int i = 0; i < names.size(); i++) {
                InfoColumn column = infoByName.get(names.get(i).toLowerCase(Locale.ROOT));
                if (column != null && column.primary()) {
                    key.add(i);
                }
            }
        }
        if (key.isEmpty()) {
            throw new StreamException("table " + schema + "." + table
                    + " has no primary key; the change stream needs one to apply updates and deletes");
        }
        return new TableSchema(schema, table, columns, key);
    }

    /** The column kind, with ENUM and SET that the binlog hides in STRING resolved from the metadata. */
    public static ColumnKind kind(int typeCode, int metadata) {
        ColumnType type = ColumnType.byCode(typeCode);
        if (type == ColumnType.STRING) {
            int real = (metadata >> 8) & 0xFF;
            if (real == ColumnType.ENUM.getCode()) {
                return ColumnKind.ENUM;
            }
            if (real == ColumnType.SET.getCode()) {
                return ColumnKind.SET;
            }
        }
        return type == null ? ColumnKind.OTHER : ColumnKind.of(type);
    }

    @Override
    public void invalidate(String schema) {
        if (schema == null) {
            cache.clear();
        } else {
            cache.keySet().removeIf(key -> key.startsWith(schema + "."));
        }
    }

    private List<InfoColumn> info(String schema, String table) {
        String key = schema + "." + table;
        List<InfoColumn> cached = cache.get(key);
        if (cached != null) {
            return cached;
        }
        List<InfoColumn> columns = new ArrayList<>();
        try {
            if (connection == null || !connection.isValid(2)) {
                close();
                connection = source.connect();
            }
            try (PreparedStatement statement = connection.prepareStatement(
                    "SELECT COLUMN_NAME, COLUMN_TYPE, CHARACTER_SET_NAME, COLUMN_KEY, IS_GENERATED FROM information_schema.COLUMNS"
                            + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
                statement.setString(1, schema);
                statement.setString(2, table);
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        columns.add(new InfoColumn(rows.getString(1),
                                rows.getString(2).toLowerCase(Locale.ROOT).contains("unsigned"),
                                rows.getString(3), "PRI".equals(rows.getString(4)),
                                "ALWAYS".equalsIgnoreCase(rows.getString(5))));
                    }
                }
            }
        } catch (SQLException e) {
            close();
            String message = "cannot read the columns of " + key + " from " + source.address() + ": " + e.getMessage();
            if (e.getSQLState() != null && e.getSQLState().startsWith("08")) {
                throw new SourceUnavailableException(message, e);
            }
            throw new StreamException(message, e);
        }
        cache.put(key, columns);
        return columns;
    }

    /** The database's present default character set on the source; null when it cannot be read. */
    public String databaseCharset(String schema) {
        try {
            if (connection == null || !connection.isValid(2)) {
                close();
                connection = source.connect();
            }
            try (PreparedStatement statement = connection.prepareStatement(
                    "SELECT DEFAULT_CHARACTER_SET_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?")) {
                statement.setString(1, schema);
                try (ResultSet rows = statement.executeQuery()) {
                    return rows.next() ? rows.getString(1) : null;
                }
            }
        } catch (SQLException e) {
            close();
            return null;
        }
    }

    @Override
    public void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // Closing a control connection that already failed.
            }
            connection = null;
        }
    }

    private record InfoColumn(String name, boolean unsigned, String charset, boolean primary, boolean generated) {
    }
}
