package io.shardgate.replication.stream.history;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventMetadata;
import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.stream.Column;
import io.shardgate.replication.stream.ColumnKind;
import io.shardgate.replication.stream.DdlChange;
import io.shardgate.replication.stream.DdlClassifier;
import io.shardgate.replication.stream.StreamException;
import io.shardgate.replication.stream.TableFilter;
import io.shardgate.replication.stream.TableSchema;
import io.shardgate.replication.stream.TableSchemaSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The schema history followed through every kind of DDL, and rows read with it. */
class SchemaHistoryTest {
    private final List<String> notices = new ArrayList<>();
    private final FakePresent present = new FakePresent();
    private final Map<String, String> databaseCharsets = new HashMap<>(Map.of("sb1", "utf8mb4", "other", "latin1"));
    private final SchemaHistory history = new SchemaHistory(TableFilter.all(), present, databaseCharsets::get, notices::add);
    private final DdlClassifier classifier = new DdlClassifier();
    private long seq = 10;

    /** The source's present information_schema: answers only for the tables it is given. */
    private static final class FakePresent implements TableSchemaSource {
        final Map<String, TableSchema> tables = new HashMap<>();
        int invalidations;

        @Override
        public TableSchema resolve(TableMapEventData map) {
            TableSchema table = tables.get(map.getDatabase() + "." + map.getTable());
            if (table == null || table.columns().size() != map.getColumnTypes().length) {
                throw new StreamException("table " + map.getDatabase() + "." + map.getTable() + " has "
                        + (table == null ? 0 : table.columns().size()) + " columns on the source now but the binlog row has "
                        + map.getColumnTypes().length);
            }
            return table;
        }

        @Override
        public void invalidate(String schema) {
            invalidations++;
        }
    }

    private List<TableVersion> ddl(String db, String sql) {
        DdlChange change = classifier.classify(db, sql).orElseThrow();
        return history.afterDdl(new MariaDbGtid(0, 1, seq++), change);
    }

    /** A table map of {@code n} INT columns, without column names (binlog_row_metadata=NO_LOG). */
    private static TableMapEventData map(String db, String table, int n) {
        TableMapEventData data = new TableMapEventData();
        data.setTableId(1);
        data.setDatabase(db);
        data.setTable(table);
        byte[] types = new byte[n];
        Arrays.fill(types, (byte) 3);
        data.setColumnTypes(types);
        data.setColumnMetadata(new int[n]);
        return data;
    }

    private List<String> columns(String db, String table, int n) {
        return history.resolve(map(db, table, n)).columnNames();
    }

    private TableShape shape(String db, String table) {
        return history.shape(new TableName(db, table));
    }

    private void sbtest1() {
        ddl("sb1", "CREATE TABLE sbtest1 (id INT NOT NULL AUTO_INCREMENT, k INT UNSIGNED NOT NULL DEFAULT 0,"
                + " c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) CHARACTER SET latin1 NOT NULL DEFAULT '',"
                + " PRIMARY KEY (id), KEY k_1 (k)) ENGINE=InnoDB");
    }

    @Test
    void aCreatedTableReadsItsRowsWithItsColumnsKeyAndCharsets() {
        sbtest1();
        TableSchema table = history.resolve(map("sb1", "sbtest1", 4));
        assertThat(table.columnNames()).containsExactly("id", "k", "c", "pad");
        assertThat(table.keyColumns()).containsExactly(0);
        assertThat(table.columns().get(1).unsigned()).isTrue();
        assertThat(table.columns().get(2).charset()).isEqualTo("utf8mb4");
        assertThat(table.columns().get(3).charset()).isEqualTo("latin1");
        assertThat(table.columns().get(0).type()).isEqualTo(ColumnKind.INT);
    }

    @Test
    void rowsBeforeAndAfterAddColumnEachReadWithTheirOwnColumns() {
        sbtest1();
        assertThat(columns("sb1", "sbtest1", 4)).containsExactly("id", "k", "c", "pad");
        List<TableVersion> versions = ddl("sb1", "ALTER TABLE sbtest1 ADD COLUMN x INT");
        assertThat(columns("sb1", "sbtest1", 5)).containsExactly("id", "k", "c", "pad", "x");
        assertThat(versions).hasSize(1);
        assertThat(versions.get(0).gtid()).isEqualTo(new MariaDbGtid(0, 1, 11));
        assertThat(versions.get(0).shape().columnNames()).containsExactly("id", "k", "c", "pad", "x");
        assertThatThrownBy(() -> columns("sb1", "sbtest1", 4)).isInstanceOf(StreamException.class)
                .hasMessageContaining("5 columns").hasMessageContaining("binlog row has 4");
    }

    @Test
    void addSeveralColumnsInParenthesesFirstAndAfter() {
        sbtest1();
        ddl("sb1", "ALTER TABLE sbtest1 ADD COLUMN (a INT, b INT UNSIGNED), ADD z INT FIRST, ADD m INT AFTER k");
        assertThat(shape("sb1", "sbtest1").columnNames()).containsExactly("z", "id", "k", "m", "c", "pad", "a", "b");
        assertThat(shape("sb1", "sbtest1").columns().get(7).unsigned()).isTrue();
    }

    @Test
    void dropModifyChangeAndRenameColumn() {
        sbtest1();
        ddl("sb1", "ALTER TABLE sbtest1 DROP COLUMN c");
        assertThat(shape("sb1", "sbtest1").columnNames()).containsExactly("id", "k", "pad");
        ddl("sb1", "ALTER TABLE sbtest1 MODIFY k BIGINT NOT NULL FIRST");
        assertThat(shape("sb1", "sbtest1").columnNames()).containsExactly("k", "id", "pad");
        assertThat(shape("sb1", "sbtest1").columns().get(0).unsigned()).isFalse();
        ddl("sb1", "ALTER TABLE sbtest1 CHANGE pad filler VARCHAR(60) CHARACTER SET utf8mb4 AFTER k");
        assertThat(shape("sb1", "sbtest1").columnNames()).containsExactly("k", "filler", "id");
        assertThat(shape("sb1", "sbtest1").columns().get(1).charset()).isEqualTo("utf8mb4");
        ddl("sb1", "ALTER TABLE sbtest1 RENAME COLUMN id TO ident");
        assertThat(shape("sb1", "sbtest1").columnNames()).containsExactly("k", "filler", "ident");
        assertThat(shape("sb1", "sbtest1").primaryKey()).containsExactly("ident");
        assertThat(history.resolve(map("sb1", "sbtest1", 3)).keyColumns()).containsExactly(2);
    }

    @Test
    void charsetsFollowCollationsConvertAndBinaryTypes() {
        ddl("other", "CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(3), b VARCHAR(3) COLLATE utf8mb4_bin,"
                + " c VARBINARY(3), d BLOB, e TEXT CHARSET utf8, f VARCHAR(3) CHARACTER SET binary, g JSON)");
        assertThat(shape("other", "t").columns()).extracting(ColumnShape::charset)
                .containsExactly(null, "latin1", "utf8mb4", null, null, "utf8mb3", null, "utf8mb4");
        ddl("other", "ALTER TABLE t CONVERT TO CHARACTER SET utf8mb4");
        assertThat(shape("other", "t").columns()).extracting(ColumnShape::charset)
                .containsExactly(null, "utf8mb4", "utf8mb4", null, null, "utf8mb4", null, "utf8mb4");
        ddl("other", "CREATE TABLE u (id INT PRIMARY KEY, v VARCHAR(3)) DEFAULT CHARSET=ucs2");
        ddl("other", "ALTER TABLE u ADD w TEXT");
        assertThat(shape("other", "u").columns()).extracting(ColumnShape::charset).containsExactly(null, "ucs2", "ucs2");
    }

    @Test
    void addAndDropPrimaryKey() {
        ddl("sb1", "CREATE TABLE t (a INT NOT NULL, b INT NOT NULL)");
        assertThatThrownBy(() -> history.resolve(map("sb1", "t", 2))).hasMessageContaining("no primary key");
        ddl("sb1", "ALTER TABLE t ADD PRIMARY KEY (b, a)");
        assertThat(history.resolve(map("sb1", "t", 2)).keyColumns()).containsExactly(1, 0);
        ddl("sb1", "ALTER TABLE t DROP PRIMARY KEY, ADD CONSTRAINT pk PRIMARY KEY (a)");
        assertThat(history.resolve(map("sb1", "t", 2)).keyColumns()).containsExactly(0);
        ddl("sb1", "ALTER TABLE t DROP PRIMARY KEY");
        assertThat(shape("sb1", "t").primaryKey()).isEmpty();
    }

    @Test
    void renameTableSeveralPairsInOrderAndAlterRename() {
        ddl("sb1", "CREATE TABLE a (id INT PRIMARY KEY, x INT)");
        ddl("sb1", "CREATE TABLE b (id INT PRIMARY KEY)");
        List<TableVersion> swap = ddl("sb1", "RENAME TABLE a TO tmp, b TO a, tmp TO b");
        assertThat(shape("sb1", "a").columnNames()).containsExactly("id");
        assertThat(shape("sb1", "b").columnNames()).containsExactly("id", "x");
        assertThat(shape("sb1", "tmp")).isNull();
        assertThat(swap).extracting(v -> v.table().table()).containsExactlyInAnyOrder("a", "b", "tmp");
        assertThat(swap).filteredOn(v -> v.table().table().equals("tmp")).allMatch(TableVersion::dropped);
        ddl("sb1", "RENAME TABLE sb1.b TO other.b2");
        assertThat(shape("other", "b2").columnNames()).containsExactly("id", "x");
        ddl("other", "ALTER TABLE b2 RENAME TO b3");
        assertThat(shape("other", "b3").columnNames()).containsExactly("id", "x");
        assertThat(shape("other", "b2")).isNull();
    }

    @Test
    void dropCreateLikeAndCreateIfNotExists() {
        sbtest1();
        ddl("sb1", "CREATE TABLE copy LIKE sbtest1");
        assertThat(shape("sb1", "copy").columnNames()).containsExactly("id", "k", "c", "pad");
        ddl("sb1", "CREATE TABLE IF NOT EXISTS copy (other INT PRIMARY KEY)");
        assertThat(shape("sb1", "copy").columnNames()).containsExactly("id", "k", "c", "pad");
        List<TableVersion> dropped = ddl("sb1", "DROP TABLE IF EXISTS `copy`, sbtest1 /* generated by server */");
        assertThat(dropped).hasSize(2).allMatch(TableVersion::dropped);
        assertThat(shape("sb1", "sbtest1")).isNull();
        ddl("sb1", "CREATE TABLE sbtest1 (id BIGINT PRIMARY KEY)");
        assertThat(columns("sb1", "sbtest1", 1)).containsExactly("id");
        ddl("sb1", "CREATE OR REPLACE TABLE sbtest1 (id INT PRIMARY KEY, v INT)");
        assertThat(columns("sb1", "sbtest1", 2)).containsExactly("id", "v");
        ddl("", "DROP DATABASE sb1");
        assertThat(shape("sb1", "sbtest1")).isNull();
    }

    @Test
    void qualifiedUnqualifiedBackticksAndCase() {
        ddl("", "CREATE TABLE `sb1`.`Odd``Name` (`Id` INT PRIMARY KEY, `v` INT)");
        assertThat(shape("sb1", "Odd`Name").columnNames()).containsExactly("Id", "v");
        ddl("other", "ALTER TABLE sb1.`Odd``Name` ADD COLUMN w INT AFTER ID");
        assertThat(shape("sb1", "Odd`Name").columnNames()).containsExactly("Id", "w", "v");
        // Table names are case sensitive: an ALTER of another case names another table.
        ddl("sb1", "CREATE TABLE T (id INT PRIMARY KEY)");
        ddl("sb1", "ALTER TABLE t ADD COLUMN q INT");
        assertThat(shape("sb1", "T").columnNames()).containsExactly("id");
        // A DROP COLUMN of a column in another case finds it.
        ddl("sb1", "ALTER TABLE `sb1`.`Odd``Name` DROP COLUMN V");
        assertThat(shape("sb1", "Odd`Name").columnNames()).containsExactly("Id", "w");
    }

    @Test
    void executableCommentsAreReadAsTheServerRanThem() {
        ddl("sb1", "CREATE TABLE /*!32312 IF NOT EXISTS*/ t (id INT PRIMARY KEY) /*!40101 DEFAULT CHARSET=latin1 */");
        assertThat(shape("sb1", "t").defaultCharset()).isEqualTo("latin1");
        ddl("sb1", "ALTER TABLE t /*M!100301 ADD COLUMN c VARCHAR(3) */");
        assertThat(shape("sb1", "t").columnNames()).containsExactly("id", "c");
        assertThat(shape("sb1", "t").columns().get(1).charset()).isEqualTo("latin1");
        // A string that looks like a comment stays a string.
        ddl("sb1", "ALTER TABLE t ADD COLUMN d VARCHAR(5) DEFAULT '/*!x*/'");
        assertThat(shape("sb1", "t").columnNames()).containsExactly("id", "c", "d");
    }

    @Test
    void indexDdlAndTruncateChangeNoColumns() {
        sbtest1();
        assertThat(ddl("sb1", "CREATE INDEX k2 ON sbtest1 (c)")).isEmpty();
        assertThat(ddl("sb1", "ALTER TABLE sbtest1 ADD UNIQUE KEY u (c), DROP INDEX k_1, ALGORITHM=INPLACE, LOCK=NONE")).isEmpty();
        assertThat(ddl("sb1", "ALTER TABLE sbtest1 ENGINE=ROCKSDB, ADD FULLTEXT KEY ft (c), ALTER COLUMN k SET DEFAULT 3")).isEmpty();
        assertThat(ddl("sb1", "TRUNCATE TABLE sbtest1")).isEmpty();
        assertThat(shape("sb1", "sbtest1").columnNames()).containsExactly("id", "k", "c", "pad");
    }

    @Test
    void unknownDdlReadsTheNextRowFromThePresentSchemaWhenItFits() {
        sbtest1();
        List<TableVersion> versions = ddl("sb1", "ALTER TABLE sbtest1 ADD COLUMN IF NOT EXISTS x INT");
        assertThat(versions).hasSize(1);
        assertThat(versions.get(0).unknownDdl()).contains("IF NOT EXISTS");
        assertThat(notices).anyMatch(n -> n.contains("cannot follow") && n.contains("0-1-11"));
        present.tables.put("sb1.sbtest1", new TableSchema("sb1", "sbtest1", List.of(new Column("id", ColumnKind.INT, false, null),
                new Column("k", ColumnKind.INT, true, null), new Column("c", ColumnKind.STRING, false, "utf8mb4"),
                new Column("pad", ColumnKind.STRING, false, "latin1"), new Column("x", ColumnKind.INT, false, null)), List.of(0)));
        assertThat(columns("sb1", "sbtest1", 5)).containsExactly("id", "k", "c", "pad", "x");
        // Adopted: the next DDL follows from there.
        ddl("sb1", "ALTER TABLE sbtest1 DROP COLUMN k");
        assertThat(columns("sb1", "sbtest1", 4)).containsExactly("id", "c", "pad", "x");
    }

    @Test
    void unknownDdlStopsTheStreamNamingStatementAndGtidWhenThePresentSchemaDoesNotFit() {
        sbtest1();
        ddl("sb1", "ALTER TABLE sbtest1 ADD COLUMN IF NOT EXISTS x INT");
        assertThatThrownBy(() -> columns("sb1", "sbtest1", 5)).isInstanceOf(StreamException.class)
                .hasMessageContaining("ADD COLUMN IF NOT EXISTS x INT").hasMessageContaining("0-1-11");
    }

    @Test
    void createTableSelectIsUnknown() {
        ddl("sb1", "CREATE TABLE t2 (id INT PRIMARY KEY) SELECT 1 AS id");
        assertThatThrownBy(() -> columns("sb1", "t2", 1)).hasMessageContaining("CREATE TABLE t2");
    }

    @Test
    void fullMetadataNamesWinAndADisagreeingHistoryIsReported() {
        sbtest1();
        TableMapEventData map = map("sb1", "sbtest1", 4);
        TableMapEventMetadata metadata = new TableMapEventMetadata();
        metadata.setColumnNames(List.of("id", "k", "c", "pad"));
        map.setEventMetadata(metadata);
        assertThat(history.resolve(map).columns().get(3).charset()).isEqualTo("latin1");
        assertThat(notices).noneMatch(n -> n.contains("disagree"));
        metadata.setColumnNames(List.of("id", "k", "c", "filler"));
        present.tables.put("sb1.sbtest1", new TableSchema("sb1", "sbtest1", List.of(new Column("id", ColumnKind.INT, false, null),
                new Column("k", ColumnKind.INT, true, null), new Column("c", ColumnKind.STRING, false, "utf8mb4"),
                new Column("filler", ColumnKind.STRING, false, "latin1")), List.of(0)));
        assertThat(history.resolve(map).columnNames()).containsExactly("id", "k", "c", "filler");
        assertThat(notices).anyMatch(n -> n.contains("following the binlog"));
        assertThat(shape("sb1", "sbtest1").columnNames()).containsExactly("id", "k", "c", "filler");
    }

    @Test
    void aTableNeverSeenTakesThePresentColumnsWithANotice() {
        present.tables.put("sb1.fresh", new TableSchema("sb1", "fresh", List.of(new Column("id", ColumnKind.INT, false, null)),
                List.of(0)));
        assertThat(columns("sb1", "fresh", 1)).containsExactly("id");
        assertThat(notices).anyMatch(n -> n.contains("sb1.fresh has no shape in the history"));
    }

    @Test
    void restoreTakesTheNewestVersionTheStartCovers() {
        sbtest1();
        List<TableVersion> stored = new ArrayList<>(history.seed(List.of(shape("sb1", "sbtest1"))));
        stored.addAll(ddl("sb1", "ALTER TABLE sbtest1 ADD COLUMN x INT"));
        stored.addAll(ddl("sb1", "ALTER TABLE sbtest1 DROP COLUMN c"));
        SchemaHistory atFirstAlter = new SchemaHistory(TableFilter.all(), present, s -> null, notices::add);
        atFirstAlter.restore(stored, MariaDbGtidPosition.parse("0-1-11"));
        assertThat(atFirstAlter.resolve(map("sb1", "sbtest1", 5)).columnNames()).containsExactly("id", "k", "c", "pad", "x");
        SchemaHistory beforeAny = new SchemaHistory(TableFilter.all(), present, s -> null, notices::add);
        beforeAny.restore(stored, MariaDbGtidPosition.parse("0-1-5"));
        assertThat(beforeAny.resolve(map("sb1", "sbtest1", 4)).columnNames()).containsExactly("id", "k", "c", "pad");
        // Following the same DDL again after the restore gives the same shape.
        List<TableVersion> again = beforeAny.afterDdl(new MariaDbGtid(0, 1, 11),
                classifier.classify("sb1", "ALTER TABLE sbtest1 ADD COLUMN x INT").orElseThrow());
        assertThat(again.get(0).shape()).isEqualTo(stored.get(1).shape());
        assertThat(again.get(0).ordinal()).isGreaterThan(stored.get(2).ordinal());
        // A DDL the history already followed is not followed twice.
        assertThat(atFirstAlter.afterDdl(new MariaDbGtid(0, 1, 11),
                classifier.classify("sb1", "ALTER TABLE sbtest1 ADD COLUMN x INT").orElseThrow())).isEmpty();
    }

    @Test
    void onlyCarriedTablesAreKept() {
        SchemaHistory some = new SchemaHistory(TableFilter.schemas(java.util.Set.of("sb1")), present, s -> null, notices::add);
        List<TableVersion> versions = some.afterDdl(new MariaDbGtid(0, 1, 3),
                classifier.classify("other", "CREATE TABLE t (id INT PRIMARY KEY)").orElseThrow());
        assertThat(versions).isEmpty();
        assertThat(some.shape(new TableName("other", "t"))).isNull();
        assertThat(present.invalidations).isEqualTo(1);
    }

    @Test
    void shapesSurviveTheirStoredText() {
        TableShape shape = new TableShape(new TableName("sb1", "t\tx"), List.of(
                new ColumnShape("id", true, null, false, false), new ColumnShape("we%ird\n-", false, "latin1", true, true),
                new ColumnShape("-", false, "utf8mb4", false, true)), List.of("id", "-"), null);
        assertThat(ShapeCodec.decode(shape.name(), ShapeCodec.encode(shape))).isEqualTo(shape);
        assertThatThrownBy(() -> ShapeCodec.decode(shape.name(), "v1\ncharset\t-\nkey\tid\ncol\tid\tU"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("short line");
    }
}
