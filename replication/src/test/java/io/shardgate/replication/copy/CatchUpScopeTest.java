package io.shardgate.replication.copy;

import io.shardgate.replication.stream.Column;
import io.shardgate.replication.stream.ColumnKind;
import io.shardgate.replication.stream.RowChange;
import io.shardgate.replication.stream.TableSchema;
import io.shardgate.router.collation.Collations;
import io.shardgate.router.shard.KeyRange;
import io.shardgate.router.value.SqlValue;
import io.shardgate.router.vindex.HashVindex;
import io.shardgate.router.vindex.KeyType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The pk filter of the catch-up: only rows already copied, only in the target's key range. */
class CatchUpScopeTest {
    private static final HashVindex VINDEX = new HashVindex(KeyType.INTEGER);
    private static final KeyRange LOW = KeyRange.parse("-80");
    private static final TableShape SHAPE = new TableShape(new CopyTable("shop", "t", "k", VINDEX),
            List.of("id", "k", "v"), List.of(ColumnCodec.NUMBER, ColumnCodec.NUMBER, ColumnCodec.UTF8_TEXT),
            List.of(new KeyColumn("id", KeyColumn.Kind.INTEGER, null, null)), new int[] {0}, 1,
            KeyColumn.Kind.INTEGER, null);
    private static final TableSchema TABLE = new TableSchema("shop", "t", List.of(
            new Column("id", ColumnKind.BIGINT, false, null), new Column("k", ColumnKind.INT, false, null),
            new Column("v", ColumnKind.STRING, false, "utf8mb4")), List.of(0));
    private static final TableSchema OTHER = new TableSchema("shop", "other", TABLE.columns(), List.of(0));

    private static final long LOW_KEY = keyIn(true);
    private static final long HIGH_KEY = keyIn(false);

    private static long keyIn(boolean low) {
        for (long k = 1; ; k++) {
            long id = VINDEX.keyspaceId(VINDEX.keyType().store(SqlValue.ofLong(k)).orElseThrow());
            if (LOW.contains(id) == low) {
                return k;
            }
        }
    }

    private static CatchUpScope scope(List<PkValue> bound) {
        return new CatchUpScope(Map.of("shop.t", SHAPE, "shop.other", SHAPE), Map.of("shop.t", bound), LOW);
    }

    private static List<PkValue> upTo(long id) {
        return List.of(new PkValue(KeyColumn.Kind.INTEGER, Long.toString(id)));
    }

    private static Object[] row(long id, long k) {
        return new Object[] {id, (int) k, "x"};
    }

    private static RowChange insert(long id, long k) {
        return new RowChange(TABLE, RowChange.Kind.INSERT, null, row(id, k));
    }

    @Test
    void keepsOnlyRowsAtOrBelowTheLastCopiedKeyInTheTargetsRange() {
        CatchUpScope scope = scope(upTo(100));
        assertThat(scope.filter().keep(insert(100, LOW_KEY))).isTrue();
        assertThat(scope.filter().keep(insert(7, LOW_KEY))).isTrue();
        assertThat(scope.filter().keep(insert(101, LOW_KEY))).as("not copied yet: the snapshot brings it").isFalse();
        assertThat(scope.filter().keep(insert(5, HIGH_KEY))).as("the other target's key").isFalse();
        assertThat(scope.filter().keep(new RowChange(TABLE, RowChange.Kind.DELETE, row(50, LOW_KEY), null))).isTrue();
    }

    @Test
    void aBigUnsignedKeyComparesAsANumber() {
        CatchUpScope scope = scope(upTo(100));
        assertThat(scope.filter().keep(new RowChange(TABLE, RowChange.Kind.INSERT, null,
                new Object[] {new java.math.BigInteger("18446744073709551615"), (int) LOW_KEY, "x"}))).isFalse();
    }

    @Test
    void aTableNotStartedGetsNothingAndAFinishedOneEverythingInRange() {
        CatchUpScope scope = scope(upTo(100));
        assertThat(scope.filter().keep(new RowChange(OTHER, RowChange.Kind.INSERT, null, row(1, LOW_KEY)))).isFalse();
        CatchUpScope done = scope(List.of());
        assertThat(done.filter().keep(insert(1_000_000, LOW_KEY))).isTrue();
        assertThat(done.filter().keep(insert(1_000_000, HIGH_KEY))).isFalse();
    }

    @Test
    void anUpdateThatMovesARowAcrossTheBoundBecomesAnInsertOrADelete() {
        CatchUpScope scope = scope(upTo(100));
        RowChange in = new RowChange(TABLE, RowChange.Kind.UPDATE, row(500, LOW_KEY), row(50, LOW_KEY));
        assertThat(scope.filter().keep(in)).isTrue();
        RowChange inserted = scope.map(in);
        assertThat(inserted.kind()).isEqualTo(RowChange.Kind.INSERT);
        assertThat(inserted.after()).isEqualTo(row(50, LOW_KEY));

        RowChange out = new RowChange(TABLE, RowChange.Kind.UPDATE, row(50, LOW_KEY), row(500, LOW_KEY));
        RowChange deleted = scope.map(out);
        assertThat(deleted.kind()).isEqualTo(RowChange.Kind.DELETE);
        assertThat(deleted.before()).isEqualTo(row(50, LOW_KEY));

        RowChange moved = new RowChange(TABLE, RowChange.Kind.UPDATE, row(50, LOW_KEY), row(50, HIGH_KEY));
        assertThat(scope.map(moved).kind()).as("the shard key left this target's range").isEqualTo(RowChange.Kind.DELETE);

        RowChange inside = new RowChange(TABLE, RowChange.Kind.UPDATE, row(50, LOW_KEY), row(60, LOW_KEY));
        assertThat(scope.map(inside)).isSameAs(inside);
        assertThat(scope.map(new RowChange(TABLE, RowChange.Kind.UPDATE, row(500, LOW_KEY), row(600, LOW_KEY)))).isNull();
    }

    @Test
    void keyColumnsOrderAsTheirColumnDoes() {
        KeyColumn text = new KeyColumn("name", KeyColumn.Kind.STRING, "utf8mb4", Collations.UTF8MB4_GENERAL_CI);
        PkValue b = text.fromRaw("B".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(b.value()).isEqualTo("42");
        assertThat(text.compare("a", b)).isNegative();
        assertThat(text.compare("b", b)).isZero();
        assertThat(text.compare("c", b)).isPositive();

        KeyColumn when = new KeyColumn("at", KeyColumn.Kind.TEMPORAL, null, null);
        PkValue noon = when.fromRaw("2024-01-02 12:00:00.500000");
        assertThat(when.compare("2024-01-02 12:00:00.5", noon)).isZero();
        assertThat(when.compare("2024-01-02 12:00:00.4", noon)).isNegative();

        KeyColumn raw = new KeyColumn("b", KeyColumn.Kind.BINARY, null, null);
        assertThat(raw.compare(new byte[] {(byte) 0xFF}, raw.fromRaw(new byte[] {0x7F}))).isPositive();

        KeyColumn decimal = new KeyColumn("d", KeyColumn.Kind.DECIMAL, null, null);
        assertThat(decimal.compare(new java.math.BigDecimal("1.50"), new PkValue(KeyColumn.Kind.DECIMAL, "1.5"))).isZero();
    }

    @Test
    void boundsAreLiteralsThatCompareAsTheColumnDoes() {
        TableShape shape = new TableShape(CopyTable.whole("shop", "t"), List.of("a", "b", "c"),
                List.of(ColumnCodec.NUMBER, ColumnCodec.UTF8_TEXT, ColumnCodec.FLOAT),
                List.of(new KeyColumn("a", KeyColumn.Kind.INTEGER, null, null),
                        new KeyColumn("b", KeyColumn.Kind.STRING, "utf8mb4", Collations.UTF8MB4_BIN)),
                new int[] {0, 1}, -1, null, null);
        List<PkValue> last = List.of(new PkValue(KeyColumn.Kind.INTEGER, "5"), new PkValue(KeyColumn.Kind.STRING, "27"));
        assertThat(shape.chunkQuery(last, 1000)).isEqualTo("SELECT `a`, `b`, CAST(`c` AS DOUBLE) FROM `shop`.`t`"
                + " FORCE INDEX (PRIMARY) WHERE ((`a` > 5) OR (`a` = 5 AND `b` > _utf8mb4 X'27'))"
                + " ORDER BY `a`, `b` LIMIT 1000");
        assertThat(shape.chunkQuery(null, 10)).endsWith("FORCE INDEX (PRIMARY) ORDER BY `a`, `b` LIMIT 10");
        assertThat(shape.insertPrefix()).isEqualTo("INSERT INTO `shop`.`t` (`a`, `b`, `c`) VALUES ");
    }
}
