package io.shardgate.replication.stream.history;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventMetadata;
import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.stream.Column;
import io.shardgate.replication.stream.DdlChange;
import io.shardgate.replication.stream.SourceSchemaCatalog;
import io.shardgate.replication.stream.StreamException;
import io.shardgate.replication.stream.TableFilter;
import io.shardgate.replication.stream.TableSchema;
import io.shardgate.replication.stream.TableSchemaSource;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * The shape of every carried table as of the stream's position, evolved from the binlog's own DDL
 * ({@link DdlEvolution}), so that a row logged before an {@code ALTER TABLE} is read with the
 * columns it was written with, also when the source logs no column names
 * ({@code binlog_row_metadata=NO_LOG}, MariaDB's default).
 *
 * <ul>
 *   <li>Names and key from the table map ({@code binlog_row_metadata=FULL}) win: they are exact.
 *       A history that disagrees with them is reported in a notice and follows them.</li>
 *   <li>A table without a shape (never seen, or made unknown by DDL the history cannot follow)
 *       takes the source's present columns when their count fits the row; otherwise the stream
 *       stops, naming the statement and GTID that made the shape unknown.</li>
 *   <li>Each DDL returns the {@link TableVersion}s it made, which the applier stores with the
 *       DDL's position ({@code _shardgate.schema_history}); a restarted stream
 *       {@link #restore restores} the versions its start position covers.</li>
 * </ul>
 *
 * <p>Used by the binlog reader's thread only.
 */
public final class SchemaHistory implements TableSchemaSource {
    /** The GTID of a version taken when the stream started: covered by every position. */
    public static final MariaDbGtid BOOTSTRAP = new MariaDbGtid(0, 0, 0);

    private final TableFilter filter;
    private final TableSchemaSource present;
    private final Function<String, String> presentDatabaseCharset;
    private final Consumer<String> notices;
    private final Map<TableName, TableShape> shapes = new HashMap<>();
    /** Tables whose shape is unknown, with the statement and GTID that made it so. */
    private final Map<TableName, String> unknown = new HashMap<>();
    private final Map<String, String> databaseCharsets = new HashMap<>();
    private final Set<TableName> noticed = new HashSet<>();
    private MariaDbGtidPosition evolved = MariaDbGtidPosition.empty();
    private long nextOrdinal;

    /**
     * @param present                the source's present schema (its {@code information_schema}), for
     *                               tables without a shape and for FULL row metadata
     * @param presentDatabaseCharset a database's present default character set on the source; null when unknown
     */
    public SchemaHistory(TableFilter filter, TableSchemaSource present, Function<String, String> presentDatabaseCharset,
                         Consumer<String> notices) {
        this.filter = requireNonNull(filter, "filter is null");
        this.present = requireNonNull(present, "present is null");
        this.presentDatabaseCharset = requireNonNull(presentDatabaseCharset, "presentDatabaseCharset is null");
        this.notices = requireNonNull(notices, "notices is null");
    }

    /** True when a version stored at {@code gtid} is part of the schema as of {@code position}. */
    public static boolean covers(MariaDbGtidPosition position, MariaDbGtid gtid) {
        if (gtid.equals(BOOTSTRAP)) {
            return true;
        }
        MariaDbGtid have = position.byDomain().get(gtid.domain());
        return have != null && have.sequence() >= gtid.sequence();
    }

    /** Takes, per table, the newest of {@code stored} that {@code start} covers; returns how many tables. */
    public int restore(Collection<TableVersion> stored, MariaDbGtidPosition start) {
        Map<TableName, TableVersion> newest = new HashMap<>();
        for (TableVersion version : stored) {
            nextOrdinal = Math.max(nextOrdinal, version.ordinal() + 1);
            if (covers(start, version.gtid())) {
                newest.merge(version.table(), version, (a, b) -> a.ordinal() >= b.ordinal() ? a : b);
            }
        }
        for (TableVersion version : newest.values()) {
            if (version.shape() != null) {
                shapes.put(version.table(), version.shape());
            } else if (version.unknownDdl() != null) {
                unknown.put(version.table(), "'" + abbreviate(version.unknownDdl()) + "' at GTID " + version.gtid());
            }
        }
        evolved = start;
        return shapes.size() + unknown.size();
    }

    /** Takes {@code initial} as the tables' shapes at the start; returns the versions to store. */
    public List<TableVersion> seed(Collection<TableShape> initial) {
        List<TableVersion> versions = new ArrayList<>();
        for (TableShape shape : initial) {
            if (filter.carriesTable(shape.name().schema(), shape.name().table())) {
                shapes.put(shape.name(), shape);
                unknown.remove(shape.name());
                versions.add(new TableVersion(shape.name(), BOOTSTRAP, nextOrdinal++, shape, null));
            }
        }
        return versions;
    }

    /** The shape the history holds for {@code table}; null when none (absent or unknown). */
    public TableShape shape(TableName table) {
        return shapes.get(table);
    }

    @Override
    public TableSchema resolve(TableMapEventData map) {
        TableName name = new TableName(map.getDatabase(), map.getTable());
        TableShape shape = shapes.get(name);
        int count = map.getColumnTypes().length;
        TableMapEventMetadata extra = map.getEventMetadata();
        List<String> logged = extra == null ? null : extra.getColumnNames();
        if (logged != null && logged.size() == count) {
            if (shape != null && sameNames(shape.columnNames(), logged)) {
                return RowShapes.schema(map, shape);
            }
            TableSchema exact = present.resolve(map);
            if (shape != null) {
                notices.accept("schema history: " + name + " has columns " + shape.columnNames()
                        + " in the history but the binlog names " + logged + "; following the binlog");
            }
            adopt(name, exact);
            return exact;
        }
        if (shape != null) {
            if (shape.columns().size() != count) {
                throw new StreamException("table " + name + " has " + shape.columns().size() + " columns "
                        + shape.columnNames() + " in the schema history but the binlog row has " + count
                        + "; the history missed a DDL (set binlog_row_metadata=FULL on the source to log column names)");
            }
            return RowShapes.schema(map, shape);
        }
        String why = unknown.get(name);
        TableSchema current;
        try {
            current = present.resolve(map);
        } catch (StreamException e) {
            if (why == null) {
                throw e;
            }
            throw new StreamException("the schema history cannot tell the columns of " + name + " since " + why
                    + ", and its present columns on the source do not fit the binlog row: " + e.getMessage(), e);
        }
        if (noticed.add(name)) {
            notices.accept("schema history: " + name + (why == null ? " has no shape in the history"
                    : " has an unknown shape since " + why) + "; reading its rows with the source's present "
                    + current.columns().size() + " columns " + current.columnNames());
        }
        adopt(name, current);
        return current;
    }

    private void adopt(TableName name, TableSchema schema) {
        List<ColumnShape> columns = new ArrayList<>();
        for (Column column : schema.columns()) {
            columns.add(new ColumnShape(column.name(), column.unsigned(), column.charset(), column.generated(), true));
        }
        List<String> key = new ArrayList<>();
        schema.keyColumns().forEach(i -> key.add(schema.columns().get(i).name()));
        TableShape old = shapes.get(name);
        shapes.put(name, AlterTable.withKeyNotNull(new TableShape(name, columns, key,
                old == null ? null : old.defaultCharset())));
        unknown.remove(name);
    }

    private static boolean sameNames(List<String> a, List<String> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).equalsIgnoreCase(b.get(i))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void invalidate(String schema) {
        present.invalidate(schema);
    }

    @Override
    public List<TableVersion> afterDdl(MariaDbGtid gtid, DdlChange ddl) {
        present.invalidate(null);
        if (!evolved.isEmpty() && covers(evolved, gtid)) {
            return List.of(); // Already followed (read again after a reconnect).
        }
        evolved = evolved.with(gtid);
        Changes changes = new Changes(gtid, ddl.sql());
        DdlEvolution.apply(changes, ddl.defaultSchema(), ddl.sql(), List.copyOf(ddl.schemas()));
        List<TableVersion> versions = new ArrayList<>();
        for (TableName name : changes.touched) {
            if (!filter.carriesTable(name.schema(), name.table())) {
                shapes.remove(name);
                unknown.remove(name);
                continue;
            }
            noticed.remove(name);
            boolean isUnknown = unknown.containsKey(name);
            if (isUnknown) {
                notices.accept("schema history: cannot follow '" + abbreviate(ddl.sql()) + "' (GTID " + gtid + ") on "
                        + name + "; its next row is read with the source's present columns if their count fits");
            }
            versions.add(new TableVersion(name, gtid, nextOrdinal++, shapes.get(name), isUnknown ? ddl.sql() : null));
        }
        return versions;
    }

    /** The history's tables as DDL evolution changes them, noting which it touched. */
    private final class Changes implements Tables {
        private final Set<TableName> touched = new LinkedHashSet<>();
        private final String reason;

        Changes(MariaDbGtid gtid, String sql) {
            this.reason = "'" + abbreviate(sql) + "' at GTID " + gtid;
        }

        @Override
        public TableShape shape(TableName name) {
            return shapes.get(name);
        }

        @Override
        public boolean exists(TableName name) {
            return shapes.containsKey(name) || unknown.containsKey(name);
        }

        @Override
        public void put(TableShape shape) {
            // A statement that changes no column (an index, an engine) makes no new version.
            if (!shape.equals(shapes.put(shape.name(), shape)) | unknown.remove(shape.name()) != null) {
                touched.add(shape.name());
            }
        }

        @Override
        public void drop(TableName name) {
            if (shapes.remove(name) != null | unknown.remove(name) != null) {
                touched.add(name);
            }
        }

        @Override
        public void unknown(TableName name) {
            shapes.remove(name);
            unknown.put(name, reason);
            touched.add(name);
        }

        @Override
        public List<TableName> inSchema(String schema) {
            List<TableName> names = new ArrayList<>();
            shapes.keySet().stream().filter(n -> n.schema().equals(schema)).forEach(names::add);
            unknown.keySet().stream().filter(n -> n.schema().equals(schema)).forEach(names::add);
            return names;
        }

        @Override
        public String databaseCharset(String schema) {
            return databaseCharsets.computeIfAbsent(schema, presentDatabaseCharset);
        }

        @Override
        public void databaseCharset(String schema, String charset) {
            if (charset == null) {
                databaseCharsets.remove(schema);
            } else {
                databaseCharsets.put(schema, charset);
            }
        }
    }

    private static String abbreviate(String sql) {
        return sql.length() <= 120 ? sql : sql.substring(0, 117) + "...";
    }
}
