package io.shardgate.proxy.sharding;

import io.shardgate.router.schema.Column;
import io.shardgate.router.schema.TableColumns;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * Reads a shard's tables' columns from its primary's {@code information_schema.COLUMNS}, over the control
 * plane's JDBC pool (never a client's backend connection): one query per shard for all the schemas asked.
 */
final class InformationSchemaColumns implements SchemaTracker.ColumnSource {
    private final Function<String, DataSource> dataSources;

    InformationSchemaColumns(Function<String, DataSource> dataSources) {
        this.dataSources = requireNonNull(dataSources, "dataSources is null");
    }

    /** One row of {@code information_schema.COLUMNS}, as read. */
    record Row(String schema, String table, String name, int position, String type, String collation, String extra,
               String defaultValue) {
    }

    @Override
    public List<TableColumns> load(String shard, List<String> schemas) throws SQLException {
        if (schemas.isEmpty()) {
            return List.of();
        }
        String sql = "SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, COLUMN_TYPE, COLLATION_NAME, EXTRA, COLUMN_DEFAULT"
                + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA IN (" + String.join(", ", Collections.nCopies(schemas.size(), "?"))
                + ") ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION";
        List<Row> rows = new ArrayList<>();
        try (Connection connection = dataSources.apply(shard).getConnection();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < schemas.size(); i++) {
                statement.setString(i + 1, schemas.get(i));
            }
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    rows.add(new Row(result.getString(1), result.getString(2), result.getString(3), result.getInt(4), result.getString(5),
                            result.getString(6), result.getString(7), result.getString(8)));
                }
            }
        }
        return tables(rows);
    }

    /** Rows ordered by schema, table and position, grouped into tables. */
    static List<TableColumns> tables(List<Row> rows) {
        List<TableColumns> tables = new ArrayList<>();
        List<Column> columns = new ArrayList<>();
        Row first = null;
        for (Row row : rows) {
            if (first != null && !(first.schema().equals(row.schema()) && first.table().equals(row.table()))) {
                tables.add(new TableColumns(first.schema(), first.table(), columns));
                columns = new ArrayList<>();
            }
            if (columns.isEmpty()) {
                first = row;
            }
            columns.add(column(row));
        }
        if (first != null) {
            tables.add(new TableColumns(first.schema(), first.table(), columns));
        }
        return tables;
    }

    /** {@code EXTRA} says {@code VIRTUAL GENERATED}, {@code STORED GENERATED} (older: {@code PERSISTENT GENERATED}), {@code auto_increment}. */
    static Column column(Row row) {
        String extra = row.extra() == null ? "" : row.extra().toUpperCase(Locale.ROOT);
        Column.Generated generated = extra.contains("VIRTUAL") ? Column.Generated.VIRTUAL
                : extra.contains("STORED") || extra.contains("PERSISTENT") ? Column.Generated.STORED : Column.Generated.NO;
        return new Column(row.name(), row.position(), row.type(), Optional.ofNullable(row.collation()), generated,
                Optional.ofNullable(row.defaultValue()), extra.contains("AUTO_INCREMENT"));
    }
}
