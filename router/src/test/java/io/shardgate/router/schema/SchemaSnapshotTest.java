package io.shardgate.router.schema;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SchemaSnapshotTest {
    private static final List<String> SHARDS = List.of("s0", "s1");

    private static TableColumns table(String schema, String name, String... columns) {
        List<Column> list = new java.util.ArrayList<>();
        for (String column : columns) {
            String[] parts = column.split(" ");
            list.add(new Column(parts[0], list.size() + 1, parts[1], parts.length > 2 ? Optional.of(parts[2]) : Optional.empty(),
                    Column.Generated.NO, Optional.empty(), false));
        }
        return new TableColumns(schema, name, list);
    }

    @Test
    void anEmptySnapshotKnowsNothing() {
        SchemaSnapshot empty = SchemaSnapshot.empty(SHARDS);
        assertThat(empty.columns("shop", "customers")).isEmpty();
        assertThat(empty.conflict("shop", "customers")).isEmpty();
        assertThat(empty.tables()).isEmpty();
        assertThat(ColumnCatalog.NONE.columns("shop", "customers")).isEmpty();
    }

    @Test
    void schemasMatchIgnoringCaseTablesExactlyAndColumnsIgnoringCase() {
        SchemaSnapshot snapshot = SchemaSnapshot.empty(SHARDS).withShard("s0", List.of("Shop"), List.of(table("Shop", "customers", "id bigint(20)",
                "Name varchar(64) utf8mb4_general_ci")));
        assertThat(snapshot.columns("shop", "customers")).map(TableColumns::names).contains(List.of("id", "Name"));
        assertThat(snapshot.columns("SHOP", "customers")).isPresent();
        assertThat(snapshot.columns("shop", "Customers")).as("table names compare by their bytes").isEmpty();
        assertThat(snapshot.columns("shop", "customers").orElseThrow().column("NAME")).map(Column::collation)
                .contains(Optional.of("utf8mb4_general_ci"));
    }

    @Test
    void shardsThatAgreeHaveNoMismatchAndTheFirstShardsColumnsAreUsed() {
        TableColumns customers = table("shop", "customers", "id bigint(20)", "name varchar(64)");
        SchemaSnapshot snapshot = SchemaSnapshot.empty(SHARDS).withShard("s1", List.of("shop"), List.of(customers))
                .withShard("s0", List.of("shop"), List.of(customers));
        assertThat(snapshot.byShard("shop", "customers").keySet()).as("config order").containsExactly("s0", "s1");
        assertThat(snapshot.mismatches()).isEmpty();
        assertThat(snapshot.conflict("shop", "customers")).isEmpty();
    }

    @Test
    void anExtraColumnOnOneShardIsABlockingMismatchAndATypeOnlyOneIsReportedOnly() {
        SchemaSnapshot snapshot = SchemaSnapshot.empty(SHARDS)
                .withShard("s0", List.of("shop"), List.of(table("shop", "customers", "id bigint(20)", "name varchar(64)"),
                        table("shop", "orders", "id bigint(20)", "total decimal(10,2)")))
                .withShard("s1", List.of("shop"), List.of(table("shop", "customers", "id bigint(20)", "name varchar(64)", "note text"),
                        table("shop", "orders", "id bigint(20)", "total decimal(12,2)")));
        assertThat(snapshot.mismatches()).containsExactly(
                new SchemaSnapshot.Mismatch("shop", "customers", "s0", "s1", List.of("extra column note text"), true),
                new SchemaSnapshot.Mismatch("shop", "orders", "s0", "s1",
                        List.of("column 2 is total decimal(12,2) instead of total decimal(10,2)"), false));
        assertThat(snapshot.conflict("shop", "customers")).contains("on shard s1 extra column note text (against shard s0)");
        assertThat(snapshot.conflict("shop", "orders")).isEmpty();
    }

    @Test
    void aReloadedTableReplacesOnlyThatShardsCopyAndAGoneTableIsForgotten() {
        TableColumns before = table("shop", "customers", "id bigint(20)");
        TableColumns after = table("shop", "customers", "id bigint(20)", "email varchar(128)");
        SchemaSnapshot snapshot = SchemaSnapshot.empty(SHARDS).withShard("s0", List.of("shop"), List.of(before))
                .withShard("s1", List.of("shop"), List.of(before));
        SchemaSnapshot altered = snapshot.withTable("s0", "shop", "customers", Optional.of(after));
        assertThat(altered.columns("shop", "customers")).contains(after);
        assertThat(altered.byShard("shop", "customers").get("s1")).isEqualTo(before);
        assertThat(altered).isNotEqualTo(snapshot);
        assertThat(altered.withTable("s1", "shop", "customers", Optional.of(after)).mismatches()).isEmpty();
        SchemaSnapshot dropped = snapshot.withTable("s0", "shop", "customers", Optional.empty())
                .withTable("s1", "shop", "customers", Optional.empty());
        assertThat(dropped.columns("shop", "customers")).isEmpty();
        assertThat(dropped.tables()).isEmpty();
        assertThat(snapshot.withShard("s0", List.of("shop"), List.of()).byShard("shop", "customers").keySet())
                .as("a full load without the table forgets it on that shard").containsExactly("s1");
    }

    @Test
    void equalLoadsGiveEqualSnapshots() {
        TableColumns customers = table("shop", "customers", "id bigint(20)");
        assertThat(SchemaSnapshot.empty(SHARDS).withShard("s0", List.of("shop"), List.of(customers)))
                .isEqualTo(SchemaSnapshot.empty(SHARDS).withShard("s0", List.of("shop"), List.of(customers)))
                .isNotEqualTo(SchemaSnapshot.empty(SHARDS));
    }

    @Test
    void badInputIsRefused() {
        assertThatThrownBy(() -> SchemaSnapshot.empty(SHARDS).withTable("s9", "shop", "t", Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown shard 's9'");
        assertThatThrownBy(() -> SchemaSnapshot.empty(SHARDS).withShard("s0", List.of("shop"), List.of(table("other", "t", "id int(11)"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("other.t is not in the schemas loaded");
        assertThatThrownBy(() -> new TableColumns("shop", "t", List.of(Column.of("a", 2, "int(11)"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at position 2 (expected: 1)");
    }
}
