package io.shardgate.router.planner;

import io.shardgate.router.value.SqlValue;
import io.shardgate.router.schema.Column;
import io.shardgate.router.schema.ReferenceTable;
import io.shardgate.router.schema.SchemaSnapshot;
import io.shardgate.router.schema.TableColumns;
import io.shardgate.router.schema.SchemaRules;
import io.shardgate.router.schema.Sequence;
import io.shardgate.router.schema.Shard;
import io.shardgate.router.schema.ShardedTable;
import io.shardgate.router.schema.ShardingSchema;
import io.shardgate.router.schema.UnshardedTable;
import io.shardgate.router.shard.KeyRange;
import io.shardgate.router.vindex.HashVindex;
import io.shardgate.router.vindex.KeyType;
import io.shardgate.router.vindex.ListVindex;
import io.shardgate.router.vindex.RangeVindex;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The sharding schema of the planner tests: the example on two shards, s0 ({@code -80}) and
 * s1 ({@code 80-}), with more tables:
 *
 * <pre>
 * shop.customers    shard_key id,          hash integer   (sequence customers.id on s0)
 * shop.orders       shard_key customer_id, hash integer   (sequence orders.id on s0)
 * shop.order_items  shard_key customer_id, hash integer
 * shop.users        shard_key email,       hash string utf8mb4_general_ci
 * shop.tickets      shard_key customer_id, hash string utf8mb4_bin   (not co-located with orders)
 * shop.events       shard_key region,      list: s0 = eu, uk; s1 = us, ca
 * shop.ledger       shard_key account_id,  range: below 1000 on s0, the rest on s1
 * shop.sbtest1      shard_key id,          hash integer   (sysbench)
 * shop.countries, shop.currencies   reference
 * shop.settings     unsharded on s0;  shop.audit_log unsharded on s1
 * </pre>
 */
final class ShopSchema {
    private ShopSchema() {
    }

    static ShardingSchema create() {
        HashVindex integerHash = new HashVindex(KeyType.INTEGER);
        Map<String, List<SqlValue>> regions = new LinkedHashMap<>();
        regions.put("s0", List.of(SqlValue.ofText("eu"), SqlValue.ofText("uk")));
        regions.put("s1", List.of(SqlValue.ofText("us"), SqlValue.ofText("ca")));
        SchemaRules shop = new SchemaRules("shop", List.of(
                new ShardedTable("customers", "id", integerHash),
                new ShardedTable("orders", "customer_id", integerHash),
                new ShardedTable("order_items", "customer_id", integerHash),
                new ShardedTable("users", "email", new HashVindex(KeyType.of("string", "utf8mb4_general_ci"))),
                new ShardedTable("tickets", "customer_id", new HashVindex(KeyType.of("string", "utf8mb4_bin"))),
                new ShardedTable("events", "region", new ListVindex(KeyType.of("string", null), regions)),
                new ShardedTable("ledger", "account_id", new RangeVindex(KeyType.INTEGER,
                        List.of(new RangeVindex.Bound(SqlValue.ofLong(1000), "s0"), new RangeVindex.Bound(null, "s1")))),
                new ShardedTable("sbtest1", "id", integerHash),
                new ReferenceTable("countries"),
                new ReferenceTable("currencies"),
                new UnshardedTable("settings", "s0"),
                new UnshardedTable("audit_log", "s1")),
                List.of(new Sequence("customers", "id", "s0"), new Sequence("orders", "id", "s0")));
        return new ShardingSchema(List.of(new Shard("s0", KeyRange.parse("-80")), new Shard("s1", KeyRange.parse("80-"))),
                List.of(shop));
    }

    /**
     * The columns the planner tests' shards report: customers (id, name, country), orders (id, customer_id,
     * total), order_items with a STORED generated column, users; tickets with its columns in another order
     * on s1 than on s0 (a conflict); ledger and the others never loaded.
     */
    static SchemaSnapshot columns() {
        TableColumns customers = table("customers", "id bigint(20)", "name varchar(64)", "country char(2)");
        TableColumns orders = table("orders", "id bigint(20)", "customer_id bigint(20)", "total decimal(10,2)");
        TableColumns items = new TableColumns("shop", "order_items", List.of(Column.of("id", 1, "bigint(20)"),
                Column.of("customer_id", 2, "bigint(20)"), Column.of("qty", 3, "int(11)"), Column.of("price", 4, "decimal(10,2)"),
                new Column("total", 5, "decimal(10,2)", Optional.empty(), Column.Generated.STORED, Optional.empty(), false)));
        TableColumns users = table("users", "email varchar(128)", "name varchar(64)");
        SchemaSnapshot snapshot = SchemaSnapshot.empty(List.of("s0", "s1"));
        for (String shard : List.of("s0", "s1")) {
            snapshot = snapshot.withShard(shard, List.of("shop"), List.of(customers, orders, items, users,
                    shard.equals("s0") ? table("tickets", "id bigint(20)", "customer_id varchar(32)", "what int(11)")
                            : table("tickets", "id bigint(20)", "what int(11)", "customer_id varchar(32)")));
        }
        return snapshot;
    }

    /** A table of shop whose columns are "name type" in order. */
    private static TableColumns table(String name, String... columns) {
        List<Column> list = new java.util.ArrayList<>();
        for (String column : columns) {
            String[] parts = column.split(" ");
            list.add(Column.of(parts[0], list.size() + 1, parts[1]));
        }
        return new TableColumns("shop", name, list);
    }
}
