package io.shardgate.replication.stream;

import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventHeader;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.XAPrepareEventData;
import io.shardgate.replication.gtid.MariaDbGtid;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Groups binlog events into committed transactions. A MariaDB GTID event opens a transaction
 * (MariaDB logs no BEGIN); XID or a COMMIT query closes it; a GTID event flagged standalone
 * holds exactly one statement (DDL) and closes with it. Only closed transactions are handed on,
 * so a connection that drops mid-transaction loses nothing that was handed on and hands on
 * nothing partial.
 *
 * <p>XA: the group that XA PREPARE closes (an XA_PREPARE event) is kept by its XA id and handed on as a prepared
 * marker; the group of its XA COMMIT hands on the kept rows at the commit's GTID, that of XA ROLLBACK none
 * ({@link Transaction#xaCompletion}). An XA end whose prepare this stream never read (it lies before where the stream
 * started) cannot be applied: the stream stops, naming it, unless the snapshot the stream goes on from has it
 * ({@link PreparedXa#inSnapshot}). XA COMMIT ... ONE PHASE is logged as one ordinary group.
 *
 * <p>One instance per binlog connection: table ids are only valid within one.
 */
public final class TransactionAssembler {
    /** Receives each committed transaction, in commit order. */
    @FunctionalInterface
    public interface Output {
        void accept(Transaction transaction) throws InterruptedException;
    }

    private static final Object EXCLUDED = new Object();

    private final TableSchemaSource schemas;
    private final DdlClassifier ddl;
    private final TableFilter filter;
    private final ValueConverter converter = new ValueConverter();
    private final Output output;
    /** By table id: the table map last seen and what it resolved to (a TableSchema, or EXCLUDED). */
    private final Map<Long, Mapped> tables = new HashMap<>();

    private MariaDbGtid gtid;
    private boolean standalone;
    private List<Change> changes = new ArrayList<>();
    /** XA transactions prepared and not yet ended: their GTID and rows, by XA id. */
    private final PreparedXa prepared;

    public TransactionAssembler(TableSchemaSource schemas, DdlClassifier ddl, TableFilter filter, Output output) {
        this(schemas, ddl, filter, output, new PreparedXa());
    }

    /** {@code prepared}: shared with the assemblers of the reader's earlier connections. */
    TransactionAssembler(TableSchemaSource schemas, DdlClassifier ddl, TableFilter filter, Output output, PreparedXa prepared) {
        this.prepared = requireNonNull(prepared, "prepared is null");
        this.schemas = requireNonNull(schemas, "schemas is null");
        this.ddl = requireNonNull(ddl, "ddl is null");
        this.filter = requireNonNull(filter, "filter is null");
        this.output = requireNonNull(output, "output is null");
    }

    /** True while a transaction is open (its GTID was read, its commit not yet). */
    public boolean inTransaction() {
        return gtid != null;
    }

    public void accept(Event event) throws InterruptedException {
        EventHeader header = event.getHeader();
        switch (header.getEventType()) {
            case MARIADB_GTID -> begin(event.getData());
            case TABLE_MAP -> tableMap(event.getData());
            case WRITE_ROWS, EXT_WRITE_ROWS -> write(event.getData());
            case UPDATE_ROWS, EXT_UPDATE_ROWS -> update(event.getData());
            case DELETE_ROWS, EXT_DELETE_ROWS -> delete(event.getData());
            case QUERY -> query(event.getData(), header);
            case XID -> commit(header);
            case XA_PREPARE -> xaPrepare(event.getData(), header);
            default -> {
                // ROTATE, FORMAT_DESCRIPTION, GTID_LIST, BINLOG_CHECKPOINT, HEARTBEAT, ANNOTATE_ROWS: no data.
            }
        }
    }

    private void begin(MariadbGtidEventData data) {
        if (gtid != null) {
            throw new StreamException("transaction " + gtid + " has no commit event before the next GTID "
                    + data.getDomainId() + "-" + data.getServerId() + "-" + data.getSequence());
        }
        gtid = new MariaDbGtid(data.getDomainId(), data.getServerId(), data.getSequence());
        standalone = (data.getFlags() & MariadbGtidEventData.FL_STANDALONE) != 0;
        changes = new ArrayList<>();
    }

    private void tableMap(TableMapEventData data) {
        requireOpen("table map of " + data.getDatabase() + "." + data.getTable());
        Mapped known = tables.get(data.getTableId());
        if (known != null && known.map == data) {
            // The same map as before (RepeatedTableMaps hands out one object per repeated map), and no
            // DDL since: it resolves to the same table.
            return;
        }
        Object resolved = filter.carriesTable(data.getDatabase(), data.getTable()) ? schemas.resolve(data) : EXCLUDED;
        tables.put(data.getTableId(), new Mapped(data, resolved));
    }

    private TableSchema table(long tableId, BitSet included) {
        Mapped mapped = tables.get(tableId);
        if (mapped == null) {
            throw new StreamException("transaction " + gtid + ": row event for table id " + tableId + " without a table map");
        }
        Object table = mapped.resolved;
        if (table == EXCLUDED) {
            return null;
        }
        TableSchema schema = (TableSchema) table;
        if (included.cardinality() != schema.columns().size()) {
            throw new StreamException("transaction " + gtid + ": row of " + schema.qualifiedName() + " carries "
                    + included.cardinality() + " of " + schema.columns().size()
                    + " columns; the source must log full row images (binlog_row_image=FULL)");
        }
        return schema;
    }

    private void write(WriteRowsEventData data) {
        requireOpen("write rows");
        TableSchema table = table(data.getTableId(), data.getIncludedColumns());
        if (table != null) {
            for (Serializable[] row : data.getRows()) {
                changes.add(new RowChange(table, RowChange.Kind.INSERT, null, convert(table, row)));
            }
        }
    }

    private void update(UpdateRowsEventData data) {
        requireOpen("update rows");
        TableSchema table = table(data.getTableId(), data.getIncludedColumns());
        if (table != null) {
            table(data.getTableId(), data.getIncludedColumnsBeforeUpdate());
            for (Map.Entry<Serializable[], Serializable[]> row : data.getRows()) {
                changes.add(new RowChange(table, RowChange.Kind.UPDATE, convert(table, row.getKey()),
                        convert(table, row.getValue())));
            }
        }
    }

    private void delete(DeleteRowsEventData data) {
        requireOpen("delete rows");
        TableSchema table = table(data.getTableId(), data.getIncludedColumns());
        if (table != null) {
            for (Serializable[] row : data.getRows()) {
                changes.add(new RowChange(table, RowChange.Kind.DELETE, convert(table, row), null));
            }
        }
    }

    private Object[] convert(TableSchema table, Serializable[] row) {
        Object[] values = new Object[row.length];
        for (int i = 0; i < row.length; i++) {
            values[i] = converter.convert(table.columns().get(i), row[i]);
        }
        return values;
    }

    private void query(QueryEventData data, EventHeader header) throws InterruptedException {
        String sql = data.getSql() == null ? "" : data.getSql().trim();
        String upper = sql.toUpperCase(Locale.ROOT);
        if (upper.equals("BEGIN")) {
            return;
        }
        if (upper.equals("COMMIT") || upper.equals("ROLLBACK")) {
            commit(header);
            return;
        }
        if (upper.startsWith("XA ")) {
            xaStatement(sql, upper, header);
            return;
        }
        requireOpen("statement '" + abbreviate(sql) + "'");
        Optional<DdlChange> change = ddl.classify(data.getDatabase(), sql);
        if (change.isPresent()) {
            // Table ids and cached shapes may be stale after any DDL, carried or not; the schema
            // history follows it before any later row is resolved.
            tables.clear();
            DdlChange ddlChange = change.get().withHistory(schemas.afterDdl(gtid, change.get()));
            if (carries(ddlChange)) {
                changes.add(ddlChange);
            }
        } else if (isDml(upper)) {
            throw new StreamException("transaction " + gtid + " holds the statement '" + abbreviate(sql)
                    + "' in statement format; the source must log rows (binlog_format=ROW for every session)");
        }
        if (standalone) {
            commit(header);
        }
    }

    private boolean carries(DdlChange change) {
        if (change.schemas().isEmpty()) {
            return change.defaultSchema().isEmpty() ? filter.includeSchemas().isEmpty()
                    : filter.carriesSchema(change.defaultSchema());
        }
        return change.schemas().stream().anyMatch(filter::carriesSchema);
    }

    private static boolean isDml(String upper) {
        return upper.startsWith("INSERT") || upper.startsWith("UPDATE") || upper.startsWith("DELETE")
                || upper.startsWith("REPLACE") || upper.startsWith("LOAD");
    }

    private void commit(EventHeader header) throws InterruptedException {
        requireOpen("commit");
        Transaction transaction = new Transaction(gtid, header.getTimestamp() / 1000, changes);
        gtid = null;
        changes = new ArrayList<>();
        output.accept(transaction);
    }

    /** XA START and XA END open and close the prepared group's rows; XA COMMIT and XA ROLLBACK end a prepared one. */
    private void xaStatement(String sql, String upper, EventHeader header) throws InterruptedException {
        requireOpen("statement '" + abbreviate(sql) + "'");
        boolean commit = upper.startsWith("XA COMMIT");
        if (!commit && !upper.startsWith("XA ROLLBACK")) {
            return; // XA START, XA END: the rows between them are the group's
        }
        XaId id = XaId.parse(sql.substring(commit ? "XA COMMIT".length() : "XA ROLLBACK".length()));
        if (id == null) {
            throw new StreamException("transaction " + gtid + ": cannot read the XA id of '" + abbreviate(sql) + "'");
        }
        PreparedXa.Prepared ended = prepared.take(id);
        if (ended == null && prepared.inSnapshot(gtid)) {
            commit(header); // its outcome is in the snapshot the stream goes on from: nothing to apply
            return;
        }
        if (ended == null) {
            throw new StreamException("transaction " + gtid + " ends XA transaction " + id + ", whose XA PREPARE lies before"
                    + " where this stream started reading: its rows cannot be applied. Start from a position before that"
                    + " XA PREPARE, or where no XA transaction was prepared and not yet ended");
        }
        Transaction transaction = Transaction.xaCompletion(gtid, header.getTimestamp() / 1000,
                commit ? ended.changes() : List.of(), ended.gtid());
        gtid = null;
        changes = new ArrayList<>();
        output.accept(transaction);
    }

    private void xaPrepare(XAPrepareEventData data, EventHeader header) throws InterruptedException {
        requireOpen("XA PREPARE");
        if (data.isOnePhase()) {
            commit(header);
            return;
        }
        XaId id = XaId.of(data);
        if (!prepared.put(id, new PreparedXa.Prepared(gtid, changes))) {
            throw new StreamException("transaction " + gtid + " prepares XA transaction " + id + ", already prepared");
        }
        Transaction marker = Transaction.xaPrepare(gtid, header.getTimestamp() / 1000);
        gtid = null;
        changes = new ArrayList<>();
        output.accept(marker);
    }

    private void requireOpen(String what) {
        if (gtid == null) {
            throw new StreamException(what + " outside a transaction (no GTID event before it)");
        }
    }

    private record Mapped(TableMapEventData map, Object resolved) {
    }


    private static String abbreviate(String sql) {
        return sql.length() <= 80 ? sql : sql.substring(0, 77) + "...";
    }
}
