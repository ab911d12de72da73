package io.shardgate.replication.stream.history;

import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.stream.SourceSchemaCatalog;
import io.shardgate.replication.stream.TableFilter;
import io.shardgate.replication.stream.apply.ApplyTarget;

import java.util.List;
import java.util.function.Consumer;

/**
 * Where a stream's schema history starts, in this order: the history stored on the target
 * (the versions the start position covers); else the shapes the caller gives (a reshard's copy
 * reads them inside its consistent snapshot); else the target's {@code information_schema} (the
 * target was made from the source at the start position); else nothing, and each table takes the
 * source's present columns when first seen (the stream's behaviour before it kept a history). A
 * notice says which.
 */
public final class HistoryStart {
    private HistoryStart() {
    }

    /**
     * @param initial the caller's shapes at {@code start}; null when none were given
     */
    public static SchemaHistory open(ApplyTarget target, TableFilter tables, MariaDbGtidPosition start,
                                     List<TableShape> initial, SourceSchemaCatalog present, Consumer<String> notices) {
        SchemaHistory history = new SchemaHistory(tables, present, present::databaseCharset, notices);
        List<TableVersion> stored = target.loadSchemaHistory();
        int restored = history.restore(stored, start);
        String at = start.isEmpty() ? "the start of the binlog" : start.toString();
        if (!stored.isEmpty()) {
            notices.accept("schema history: " + restored + " tables as of " + at + " from the history stored on the target");
            return history;
        }
        List<TableShape> shapes;
        String from;
        if (initial != null) {
            shapes = initial;
            from = "the shapes the caller gave";
        } else {
            shapes = target.presentShapes(tables);
            from = "the target's information_schema";
        }
        if (initial == null && shapes.isEmpty()) {
            notices.accept("schema history: nothing stored, none given and the target has none of the stream's tables;"
                    + " a table takes the source's present columns when first seen (DDL in the binlog is followed from"
                    + " there)");
            return history;
        }
        List<TableVersion> versions = history.seed(shapes);
        target.saveSchemaHistory(versions);
        notices.accept("schema history: " + versions.size() + " tables as of " + at + " from " + from);
        return history;
    }
}
