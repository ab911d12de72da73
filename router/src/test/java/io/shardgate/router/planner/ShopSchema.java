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
     * The columns the shards report for the tables of {@link #create()}: those GoldenCorpusIT creates on its
     * shards, so that a golden INSERT without a column list gets the same answer there.
     */
    static SchemaSnapshot columns() {
        String referenceColumns = "code char(3),name varchar(64),eu tinyint(4),currency char(3),orders int(11),vat decimal(5,2),id bigint(20)";
        List<TableColumns> tables = List.of(
                table("customers", "id bigint(20),name varchar(64),city varchar(64),country char(2),status varchar(16),visits int(11),"
                        + "created_at datetime"),
                table("orders", "id bigint(20),customer_id bigint(20),total decimal(10,2),status varchar(16),country char(2),c varchar(64),"
                        + "vat decimal(5,2),created_at datetime"),
                table("order_items", "id bigint(20),customer_id bigint(20),order_id bigint(20),qty int(11)"),
                table("users", "id bigint(20),email varchar(128),name varchar(64)"),
                table("tickets", "id bigint(20),customer_id varchar(32)"),
                table("events", "id bigint(20),region varchar(8),what int(11)"),
                table("ledger", "id bigint(20),account_id bigint(20),amount decimal(10,2)"),
                table("sbtest1", "id int(11),k int(11),c char(120),pad char(60)"),
                table("countries", referenceColumns),
                table("currencies", referenceColumns));
        return SchemaSnapshot.empty(List.of("s0", "s1")).withShard("s0", List.of("shop"), tables).withShard("s1", List.of("shop"), tables);
    }

    /** A table of shop whose columns are "name type", comma-separated, in order. */
    static TableColumns table(String name, String columns) {
        List<Column> list = new java.util.ArrayList<>();
        for (String column : columns.split(",(?=[a-z_]+ )")) {
            String[] parts = column.split(" ");
            list.add(Column.of(parts[0], list.size() + 1, parts[1]));
        }
        return new TableColumns("shop", name, list);
    }
}
