package io.shardgate.proxy.sharding;

import io.shardgate.router.schema.Column;
import io.shardgate.router.schema.ReferenceTable;
import io.shardgate.router.schema.SchemaRules;
import io.shardgate.router.schema.Shard;
import io.shardgate.router.schema.ShardedTable;
import io.shardgate.router.schema.ShardingSchema;
import io.shardgate.router.schema.TableColumns;
import io.shardgate.router.schema.UnshardedTable;
import io.shardgate.router.shard.KeyRange;
import io.shardgate.router.vindex.HashVindex;
import io.shardgate.router.vindex.KeyType;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The tracker over a hand-written column source: what each shard says, or that it is down. */
class SchemaTrackerTest {
    private final ShardingSchema rules = new ShardingSchema(List.of(new Shard("s0", KeyRange.parse("-80")), new Shard("s1", KeyRange.parse("80-"))),
            List.of(new SchemaRules("shop", List.of(new ShardedTable("customers", "id", new HashVindex(KeyType.INTEGER)),
                    new ReferenceTable("countries"), new UnshardedTable("settings", "s1")), List.of())));

    /** Per shard, its tables; a shard mapped to null is down. */
    private final Map<String, List<TableColumns>> shards = new ConcurrentHashMap<>();
    private final AtomicInteger loads = new AtomicInteger();
    private final SchemaTracker.ColumnSource source = (shard, schemas) -> {
        loads.incrementAndGet();
        assertThat(schemas).containsExactly("shop");
        List<TableColumns> tables = shards.get(shard);
        if (tables == null) {
            throw new SQLException("Could not connect to shard " + shard);
        }
        return tables;
    };

    private static TableColumns table(String name, String... columns) {
        List<Column> list = new ArrayList<>();
        for (String column : columns) {
            list.add(Column.of(column, list.size() + 1, "int(11)"));
        }
        return new TableColumns("shop", name, list);
    }

    @Test
    void startupReadsEveryShardAndKeepsOnlyTheTablesTheShardingSchemaPutsThere() {
        shards.put("s0", List.of(table("customers", "id", "name"), table("countries", "code"), table("settings", "k", "v"),
                table("scratch", "x")));
        shards.put("s1", List.of(table("customers", "id", "name"), table("countries", "code"), table("settings", "k")));
        try (SchemaTracker tracker = new SchemaTracker(rules, source)) {
            tracker.start(Duration.ZERO);
            assertThat(tracker.columns("shop", "customers")).map(TableColumns::names).contains(List.of("id", "name"));
            assertThat(tracker.snapshot().byShard("shop", "settings").keySet()).as("unsharded: its own shard only").containsExactly("s1");
            assertThat(tracker.columns("shop", "scratch")).as("not in the sharding schema").isEmpty();
            assertThat(tracker.snapshot().mismatches()).isEmpty();
            assertThat(new SchemaReport(tracker).problems()).isZero();
        }
    }

    @Test
    void aChangeTellsTheListenersOnceAndAnUnchangedReloadDoesNot() {
        shards.put("s0", List.of(table("customers", "id")));
        shards.put("s1", List.of(table("customers", "id")));
        AtomicInteger changes = new AtomicInteger();
        try (SchemaTracker tracker = new SchemaTracker(rules, source)) {
            tracker.onChange(changes::incrementAndGet);
            tracker.start(Duration.ZERO);
            assertThat(changes).hasValue(1);
            tracker.reloadAll();
            assertThat(changes).as("nothing changed").hasValue(1);
            shards.put("s0", List.of(table("customers", "id", "email")));
            shards.put("s1", List.of(table("customers", "id", "email")));
            tracker.reloadAll();
            assertThat(changes).hasValue(2);
            assertThat(tracker.columns("shop", "customers")).map(TableColumns::names).contains(List.of("id", "email"));
        }
    }

    @Test
    void aShardAlteredAloneIsReportedAndBlocksTheImplicitColumnList() {
        shards.put("s0", List.of(table("customers", "id", "name")));
        shards.put("s1", List.of(table("customers", "id", "name", "extra")));
        try (SchemaTracker tracker = new SchemaTracker(rules, source)) {
            tracker.start(Duration.ZERO);
            assertThat(tracker.conflict("shop", "customers")).hasValueSatisfying(c -> assertThat(c).contains("s1", "extra column extra"));
            SchemaReport report = new SchemaReport(tracker);
            assertThat(report.rows()).contains(List.of("shop", "customers", "s1", "differs", "id, name, extra",
                    "extra column extra int(11) (against shard s0)"), List.of("shop", "customers", "s0", "ok", "id, name", ""));
            assertThat(report.rows()).contains(List.of("shop", "countries", "s0", "missing", "", ""));
            assertThat(report.json()).contains("\"problems\" : 4", "\"status\" : \"differs\"");
        }
    }

    @Test
    void aShardDownAtStartupDoesNotStopItAndIsReadOnTheNextLookupOfAnUnknownTable() throws Exception {
        shards.put("s0", List.of(table("customers", "id")));
        try (SchemaTracker tracker = new SchemaTracker(rules, source)) {
            tracker.start(Duration.ZERO);
            assertThat(tracker.loaded("s1")).isFalse();
            assertThat(tracker.failures()).containsEntry("s1", "Could not connect to shard s1");
            assertThat(new SchemaReport(tracker).rows()).contains(List.of("shop", "settings", "s1", "unknown", "",
                    "Could not connect to shard s1"));
            assertThat(tracker.columns("shop", "customers")).as("what s0 said").isPresent();
            shards.put("s1", List.of(table("customers", "id"), table("settings", "k")));
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (tracker.columns("shop", "settings").isEmpty() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(tracker.columns("shop", "settings")).as("read on the tracker's thread after a lookup missed").isPresent();
            assertThat(tracker.failures()).isEmpty();
        }
    }

    @Test
    void aShardThatFailsLaterKeepsWhatItLastSaid() {
        shards.put("s0", List.of(table("customers", "id")));
        shards.put("s1", List.of(table("customers", "id")));
        try (SchemaTracker tracker = new SchemaTracker(rules, source)) {
            tracker.start(Duration.ZERO);
            shards.remove("s1");
            tracker.reloadAll();
            assertThat(tracker.snapshot().byShard("shop", "customers").keySet()).containsExactly("s0", "s1");
            assertThat(tracker.loaded("s1")).isTrue();
            assertThat(tracker.failures()).containsKey("s1");
        }
    }

    @Test
    void thePeriodicCheckRunsOnItsOwnThread() {
        shards.put("s0", List.of(table("customers", "id")));
        shards.put("s1", List.of(table("customers", "id")));
        try (SchemaTracker tracker = new SchemaTracker(rules, source)) {
            tracker.start(Duration.ofMillis(10));
            int afterStart = loads.get();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (loads.get() < afterStart + 4 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(loads.get()).isGreaterThanOrEqualTo(afterStart + 4);
        }
    }

    @Test
    void informationSchemaRowsBecomeTablesWithGeneratedAndAutoIncrementColumns() {
        List<InformationSchemaColumns.Row> rows = List.of(
                new InformationSchemaColumns.Row("shop", "g", "id", 1, "int(11)", null, "auto_increment", null),
                new InformationSchemaColumns.Row("shop", "g", "b", 2, "int(11)", null, "VIRTUAL GENERATED", null),
                new InformationSchemaColumns.Row("shop", "g", "c", 3, "int(11)", null, "STORED GENERATED", null),
                new InformationSchemaColumns.Row("shop", "g", "d", 4, "varchar(10)", "utf8mb4_bin", "", "'x'"),
                new InformationSchemaColumns.Row("shop", "h", "k", 1, "int(11)", null, "", "NULL"));
        List<TableColumns> tables = InformationSchemaColumns.tables(rows);
        assertThat(tables).extracting(TableColumns::table).containsExactly("g", "h");
        TableColumns g = tables.get(0);
        assertThat(g.columns()).extracting(Column::generated).containsExactly(Column.Generated.NO, Column.Generated.VIRTUAL,
                Column.Generated.STORED, Column.Generated.NO);
        assertThat(g.columns().get(0).autoIncrement()).isTrue();
        assertThat(g.columns().get(3)).isEqualTo(new Column("d", 4, "varchar(10)", Optional.of("utf8mb4_bin"), Column.Generated.NO,
                Optional.of("'x'"), false));
        assertThat(InformationSchemaColumns.tables(List.of())).isEmpty();
    }
}
