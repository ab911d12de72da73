package io.shardgate.replication.stream;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.XidEventData;
import io.shardgate.replication.gtid.MariaDbGtid;
import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Binlog events as the library delivers them, assembled into transactions. */
class TransactionAssemblerTest {
    private final List<Transaction> out = new ArrayList<>();
    private final FakeSchemas schemas = new FakeSchemas();
    private TransactionAssembler assembler = new TransactionAssembler(schemas, new DdlClassifier(), TableFilter.all(), out::add);

    /** Two columns, {@code id INT UNSIGNED} (the key) and {@code name VARCHAR utf8mb4}. */
    private static final class FakeSchemas implements TableSchemaSource {
        int invalidations;
        int resolved;

        @Override
        public TableSchema resolve(TableMapEventData map) {
            resolved++;
            if (map.getTable().equals("nokey")) {
                throw new StreamException("table " + map.getDatabase() + ".nokey has no primary key");
            }
            return new TableSchema(map.getDatabase(), map.getTable(), List.of(
                    new Column("id", ColumnKind.INT, true, null), new Column("name", ColumnKind.STRING, false, "utf8mb4")),
                    List.of(0));
        }

        @Override
        public void invalidate(String schema) {
            invalidations++;
        }
    }

    private static Event event(EventType type, EventData data) {
        EventHeaderV4 header = new EventHeaderV4();
        header.setEventType(type);
        header.setTimestamp(1_700_000_000_000L);
        return new Event(header, data);
    }

    private static Event gtid(long seq, boolean standalone) {
        MariadbGtidEventData data = new MariadbGtidEventData();
        data.setDomainId(0);
        data.setServerId(1);
        data.setSequence(seq);
        data.setFlags(standalone ? MariadbGtidEventData.FL_STANDALONE : MariadbGtidEventData.FL_TRANSACTIONAL);
        return event(EventType.MARIADB_GTID, data);
    }

    private static Event tableMap(long id, String db, String table) {
        TableMapEventData data = new TableMapEventData();
        data.setTableId(id);
        data.setDatabase(db);
        data.setTable(table);
        data.setColumnTypes(new byte[]{3, 15});
        data.setColumnMetadata(new int[]{0, 400});
        return event(EventType.TABLE_MAP, data);
    }

    private static BitSet all(int n) {
        BitSet bits = new BitSet();
        bits.set(0, n);
        return bits;
    }

    private static Event insert(long tableId, int id, String name) {
        WriteRowsEventData data = new WriteRowsEventData();
        data.setTableId(tableId);
        data.setIncludedColumns(all(2));
        data.setRows(List.<Serializable[]>of(new Serializable[]{id, name.getBytes(java.nio.charset.StandardCharsets.UTF_8)}));
        return event(EventType.EXT_WRITE_ROWS, data);
    }

    private static Event query(String db, String sql) {
        QueryEventData data = new QueryEventData();
        data.setDatabase(db);
        data.setSql(sql);
        return event(EventType.QUERY, data);
    }

    private static Event xid() {
        return event(EventType.XID, new XidEventData());
    }

    private void feed(Event... events) throws InterruptedException {
        for (Event event : events) {
            assembler.accept(event);
        }
    }

    @Test
    void aTransactionIsHandedOnOnlyAtItsCommit() throws Exception {
        feed(gtid(7, false), tableMap(1, "shop", "t"), insert(1, -1, "😀"));
        assertThat(out).isEmpty();
        assertThat(assembler.inTransaction()).isTrue();

        feed(xid());

        assertThat(out).hasSize(1);
        Transaction transaction = out.get(0);
        assertThat(transaction.gtid()).isEqualTo(new MariaDbGtid(0, 1, 7));
        assertThat(transaction.commitSeconds()).isEqualTo(1_700_000_000L);
        RowChange row = (RowChange) transaction.changes().get(0);
        assertThat(row.kind()).isEqualTo(RowChange.Kind.INSERT);
        assertThat(row.after()).containsExactly(4294967295L, "😀");
        assertThat(row.table().columnNames()).containsExactly("id", "name");
        assertThat(assembler.inTransaction()).isFalse();
    }

    @Test
    void aCommitQueryClosesTransactionsOfNonTransactionalTables() throws Exception {
        feed(gtid(1, false), query("", "BEGIN"), tableMap(1, "a", "t"), insert(1, 1, "x"), query("a", "COMMIT"));
        assertThat(out).singleElement().satisfies(t -> assertThat(t.rowCount()).isEqualTo(1));
    }

    @Test
    void updatesCarryBothImages() throws Exception {
        UpdateRowsEventData update = new UpdateRowsEventData();
        update.setTableId(1);
        update.setIncludedColumns(all(2));
        update.setIncludedColumnsBeforeUpdate(all(2));
        update.setRows(List.of(new AbstractMap.SimpleEntry<>(new Serializable[]{1, "a".getBytes()},
                new Serializable[]{2, "b".getBytes()})));
        feed(gtid(3, false), tableMap(1, "a", "t"), event(EventType.EXT_UPDATE_ROWS, update), xid());
        RowChange row = (RowChange) out.get(0).changes().get(0);
        assertThat(row.before()).containsExactly(1L, "a");
        assertThat(row.after()).containsExactly(2L, "b");
        assertThat(row.describeKey()).isEqualTo("(id=1)");
    }

    @Test
    void aStandaloneDdlIsItsOwnTransactionAndForgetsCachedTables() throws Exception {
        feed(gtid(4, true), query("shop", "ALTER TABLE t ADD COLUMN x INT"));
        assertThat(out).singleElement().satisfies(t -> {
            assertThat(t.hasDdl()).isTrue();
            assertThat(t.schemas()).containsExactly("shop");
        });
        assertThat(schemas.invalidations).isEqualTo(1);
    }

    @Test
    void aRepeatedTableMapIsResolvedOnceUntilTheNextDdl() throws Exception {
        Event map = tableMap(7, "shop", "t");
        feed(gtid(1, false), map, insert(7, 1, "a"), xid(), gtid(2, false), map, insert(7, 2, "b"), xid());
        assertThat(schemas.resolved).isEqualTo(1);
        assertThat(((RowChange) out.get(1).changes().get(0)).table())
                .isSameAs(((RowChange) out.get(0).changes().get(0)).table());

        feed(gtid(3, true), query("shop", "ALTER TABLE t ADD COLUMN x INT"), gtid(4, false), map, insert(7, 3, "c"), xid());
        assertThat(schemas.resolved).isEqualTo(2);

        feed(gtid(5, false), tableMap(7, "shop", "t"), insert(7, 4, "d"), xid());
        assertThat(schemas.resolved).as("a map decoded anew is resolved anew").isEqualTo(3);
    }

    @Test
    void skippedStatementsStillCompleteTheirGtid() throws Exception {
        feed(gtid(5, true), query("", "CREATE USER 'x'@'%'"));
        assertThat(out).singleElement().satisfies(t -> assertThat(t.changes()).isEmpty());
    }

    @Test
    void rowsOfFilteredTablesAreDroppedWithoutResolvingThem() throws Exception {
        assembler = new TransactionAssembler(schemas, new DdlClassifier(), TableFilter.schemas(Set.of("keep")), out::add);
        feed(gtid(1, false), tableMap(1, "skip", "nokey"), insert(1, 1, "x"), tableMap(2, "keep", "t"), insert(2, 2, "y"), xid());
        assertThat(out.get(0).changes()).hasSize(1);
        assertThat(out.get(0).schemas()).containsExactly("keep");
    }

    @Test
    void statementFormatDmlStopsTheStreamNamingTheGtid() throws Exception {
        feed(gtid(9, false));
        assertThatThrownBy(() -> feed(query("a", "INSERT INTO t VALUES (1)")))
                .isInstanceOf(StreamException.class)
                .hasMessageContaining("0-1-9").hasMessageContaining("binlog_format=ROW");
    }

    @Test
    void aGtidWithoutCommitBeforeTheNextIsAnError() throws Exception {
        feed(gtid(1, false), tableMap(1, "a", "t"), insert(1, 1, "x"));
        assertThatThrownBy(() -> feed(gtid(2, false))).hasMessageContaining("0-1-1 has no commit event");
    }

    @Test
    void partialRowImagesAreRefused() throws Exception {
        WriteRowsEventData data = new WriteRowsEventData();
        data.setTableId(1);
        data.setIncludedColumns(all(1));
        data.setRows(List.<Serializable[]>of(new Serializable[]{1}));
        feed(gtid(1, false), tableMap(1, "a", "t"));
        assertThatThrownBy(() -> feed(event(EventType.EXT_WRITE_ROWS, data))).hasMessageContaining("binlog_row_image=FULL");
    }

    private static Event xaPrepare(String gtrid, String bqual, int format) {
        com.github.shyiko.mysql.binlog.event.XAPrepareEventData data = new com.github.shyiko.mysql.binlog.event.XAPrepareEventData();
        byte[] g = gtrid.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] b = bqual.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] both = java.util.Arrays.copyOf(g, g.length + b.length);
        System.arraycopy(b, 0, both, g.length, b.length);
        data.setFormatID(format);
        data.setGtridLength(g.length);
        data.setBqualLength(b.length);
        data.setData(both);
        return event(EventType.XA_PREPARE, data);
    }

    @Test
    void anXaTransactionsRowsComeWithItsCommitInCommitOrderAndItsPrepareIsAMarker() throws Exception {
        // As MariaDB logs it: the prepare group (rows, XA END, XA_PREPARE), then other transactions, then XA COMMIT.
        feed(gtid(3, false), tableMap(1, "shop", "t"), insert(1, 1, "xa"), query("shop", "XA END X'7831',X'6231',1"),
                xaPrepare("x1", "b1", 1));
        feed(gtid(4, false), tableMap(1, "shop", "t"), insert(1, 2, "plain"), xid());
        feed(gtid(5, false), query("shop", "XA COMMIT X'7831',X'6231',1"));
        assertThat(out).hasSize(3);
        assertThat(out.get(0).xaPrepared()).isTrue();
        assertThat(out.get(0).changes()).isEmpty();
        assertThat(out.get(0).gtid()).isEqualTo(new MariaDbGtid(0, 1, 3));
        assertThat(out.get(1).rowCount()).isEqualTo(1);
        Transaction commit = out.get(2);
        assertThat(commit.gtid()).isEqualTo(new MariaDbGtid(0, 1, 5));
        assertThat(commit.completesXa()).isEqualTo(new MariaDbGtid(0, 1, 3));
        assertThat(((RowChange) commit.changes().get(0)).after()).containsExactly(1L, "xa");
        assertThat(assembler.inTransaction()).isFalse();
    }

    @Test
    void anXaRollbackEndsItsPrepareWithNothingToApply() throws Exception {
        feed(gtid(3, false), tableMap(1, "shop", "t"), insert(1, 1, "gone"), query("shop", "XA END X'7832',X'',1"),
                xaPrepare("x2", "", 1));
        feed(gtid(4, false), query("shop", "XA ROLLBACK X'7832',X'',1"));
        assertThat(out.get(1).changes()).isEmpty();
        assertThat(out.get(1).completesXa()).isEqualTo(new MariaDbGtid(0, 1, 3));
    }

    @Test
    void anXaEndWhosePrepareCameBeforeTheStreamsStartStopsTheStreamNamingIt() throws Exception {
        assertThatThrownBy(() -> feed(gtid(9, false), query("shop", "XA COMMIT X'7839',X'',1")))
                .isInstanceOf(StreamException.class).hasMessageContaining("X'7839',X'',1").hasMessageContaining("before");
    }

    @Test
    void xaIdsMatchWhateverCaseTheHexIsWrittenIn() {
        assertThat(XaId.parse("X'7A31' , X'62', 7")).isEqualTo(new XaId("7a31", "62", 7));
        assertThat(XaId.parse("X'7a31'")).isEqualTo(new XaId("7a31", "", 1));
        assertThat(XaId.parse("'x1'")).isNull();
    }
}
