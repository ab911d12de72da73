package io.shardgate.replication.stream.history;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventMetadata;
import io.shardgate.replication.stream.Column;
import io.shardgate.replication.stream.SourceSchemaCatalog;
import io.shardgate.replication.stream.StreamException;
import io.shardgate.replication.stream.TableSchema;

import java.util.ArrayList;
import java.util.List;

/** A table map read with a history shape: types from the binlog, names and attributes from the shape. */
final class RowShapes {
    private RowShapes() {
    }

    /** {@code shape} must have as many columns as the map. */
    static TableSchema schema(TableMapEventData map, TableShape shape) {
        byte[] types = map.getColumnTypes();
        int[] meta = map.getColumnMetadata();
        List<Column> columns = new ArrayList<>(types.length);
        for (int i = 0; i < types.length; i++) {
            ColumnShape column = shape.columns().get(i);
            columns.add(new Column(column.name(), SourceSchemaCatalog.kind(types[i] & 0xFF, meta[i]), column.unsigned(),
                    column.charset(), column.generated()));
        }
        List<Integer> key = new ArrayList<>();
        TableMapEventMetadata extra = map.getEventMetadata();
        if (extra != null && extra.getSimplePrimaryKeys() != null && !extra.getSimplePrimaryKeys().isEmpty()) {
            key.addAll(extra.getSimplePrimaryKeys());
        } else if (extra != null && extra.getPrimaryKeysWithPrefix() != null && !extra.getPrimaryKeysWithPrefix().isEmpty()) {
            key.addAll(extra.getPrimaryKeysWithPrefix().keySet());
        } else {
            for (String name : shape.primaryKey()) {
                int index = shape.indexOf(name);
                if (index >= 0) {
                    key.add(index);
                }
            }
        }
        if (key.isEmpty()) {
            throw new StreamException("table " + shape.name()
                    + " has no primary key; the change stream needs one to apply updates and deletes");
        }
        return new TableSchema(map.getDatabase(), map.getTable(), columns, key);
    }
}
