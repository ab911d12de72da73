package io.shardgate.router.schema;

import io.shardgate.router.value.SqlValue;
import io.shardgate.router.shard.KeyRange;
import io.shardgate.router.vindex.HashVindex;
import io.shardgate.router.vindex.KeyType;
import io.shardgate.router.vindex.ListVindex;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShardingSchemaTest {

    private static final List<Shard> TWO = List.of(new Shard("s0", KeyRange.parse("-80")), new Shard("s1", KeyRange.parse("80-")));

    @Test
    void theIssueExampleIsValid() {
        SchemaRules shop = new SchemaRules("shop", List.of(
                new ShardedTable("customers", "id", new HashVindex(KeyType.INTEGER)),
                new ShardedTable("orders", "customer_id", new HashVindex(KeyType.INTEGER)),
                new ReferenceTable("countries"),
                new UnshardedTable("settings", "s0")),
                List.of(new Sequence("orders", "id", "s0")));
        ShardingSchema schema = new ShardingSchema(TWO, List.of(shop));
        assertThat(schema.schema("SHOP")).containsSame(shop);
        assertThat(schema.schema("other")).isEmpty();
        assertThat(shop.table("Orders").orElseThrow()).isInstanceOf(ShardedTable.class);
        assertThat(shop.sequence("orders").orElseThrow().name()).isEqualTo("orders.id");
        assertThat(schema.defaultShard()).isEqualTo("s0");
        assertThat(schema.shardNames()).containsExactly("s0", "s1");
    }

    @Test
    void rangesMustCoverTheKeyspace() {
        assertThatThrownBy(() -> new ShardingSchema(List.of(new Shard("s0", KeyRange.parse("-80")),
                new Shard("s1", KeyRange.parse("90-"))), List.of()))
                .hasMessage("shards[].key_range: key ranges leave a gap between shard s0 (-80) and shard s1 (90-)");
        assertThatThrownBy(() -> new ShardingSchema(List.of(), List.of()))
                .hasMessage("shards: at least one shard is required");
        assertThatThrownBy(() -> new ShardingSchema(List.of(new Shard("s0", KeyRange.parse("-80")),
                new Shard("s0", KeyRange.parse("80-"))), List.of()))
                .hasMessage("shards[s0]: listed twice");
    }

    @Test
    void everyNamedShardMustExist() {
        assertThatThrownBy(() -> new ShardingSchema(TWO, List.of(new SchemaRules("shop",
                List.of(new UnshardedTable("settings", "s9")), List.of()))))
                .hasMessage("schemas[shop].tables.settings.shard: no shard is named 's9'; shards: [s0, s1]");
        assertThatThrownBy(() -> new ShardingSchema(TWO, List.of(new SchemaRules("shop",
                List.of(new ShardedTable("t", "region", new ListVindex(KeyType.of("string", null), Map.of("s7", List.of(SqlValue.ofText("eu")))))),
                List.of()))))
                .hasMessage("schemas[shop].tables.t.lists: no shard is named 's7'; shards: [s0, s1]");
        assertThatThrownBy(() -> new ShardingSchema(TWO, List.of(new SchemaRules("shop",
                List.of(new ReferenceTable("t")), List.of(new Sequence("t", "id", "s3"))))))
                .hasMessage("schemas[shop].sequences.t.id.shard: no shard is named 's3'; shards: [s0, s1]");
    }

    @Test
    void tablesAndSequencesMustBeConsistent() {
        assertThatThrownBy(() -> new SchemaRules("shop", List.of(new ReferenceTable("a"), new ReferenceTable("A")), List.of()))
                .hasMessage("schemas[shop].tables.A: listed twice (names ignore case)");
        assertThatThrownBy(() -> new SchemaRules("shop", List.of(), List.of(new Sequence("orders", "id", "s0"))))
                .hasMessage("schemas[shop].sequences.orders.id: table orders is not in schemas[shop].tables");
        assertThatThrownBy(() -> new ShardedTable("orders", " ", new HashVindex(KeyType.INTEGER)))
                .hasMessage("shard_key must name a column");
        SchemaRules shop = new SchemaRules("shop", List.of(), List.of());
        assertThatThrownBy(() -> new ShardingSchema(TWO, List.of(shop, new SchemaRules("Shop", List.of(), List.of()))))
                .hasMessage("schemas[Shop]: listed twice (names ignore case)");
    }
}
