package io.shardgate.proxy.sharding;

import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import io.shardgate.router.schema.ReferenceTable;
import io.shardgate.router.schema.SchemaRules;
import io.shardgate.router.schema.Shard;
import io.shardgate.router.schema.ShardedTable;
import io.shardgate.router.schema.ShardingSchema;
import io.shardgate.router.schema.UnshardedTable;
import io.shardgate.router.shard.KeyRange;
import io.shardgate.router.vindex.HashVindex;
import io.shardgate.router.vindex.KeyType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** LOCK TABLES read by its tokens and split by the shards that hold its tables, each item in the client's text. */
class LockTablesStatementTest {
    /** Shards named against config order, so that name order (the order locks are taken in) differs from it. */
    private static final ShardingSchema PLACEMENT = new ShardingSchema(
            List.of(new Shard("s1", KeyRange.parse("-80")), new Shard("s0", KeyRange.parse("80-"))),
            List.of(new SchemaRules("shop", List.of(new ShardedTable("customers", "id", new HashVindex(KeyType.INTEGER)),
                    new ReferenceTable("countries"), new UnshardedTable("settings", "s0")), List.of())));

    private static Map<String, String> split(String sql, String schema) {
        return LockTablesStatement.parse(sql).orElseThrow().perShard(PLACEMENT, schema);
    }

    @Test
    void aShardedTableIsLockedOnEveryShardInShardNameOrder() {
        Map<String, String> statements = split("LOCK TABLES `customers` WRITE", "shop");
        assertThat(statements).containsExactly(Map.entry("s0", "LOCK TABLES `customers` WRITE"),
                Map.entry("s1", "LOCK TABLES `customers` WRITE"));
    }

    @Test
    void eachShardGetsOnlyTheItemsOfItsTablesInTheClientsText() {
        String sql = "lock table customers AS c read local, shop.settings LOW_PRIORITY WRITE , /* x */ other.t READ,"
                + " countries write concurrent";
        assertThat(split(sql, "shop")).containsExactly(
                Map.entry("s0", "lock table customers AS c read local, shop.settings LOW_PRIORITY WRITE, countries write concurrent"),
                Map.entry("s1", "lock table customers AS c read local, other.t READ, countries write concurrent"));
    }

    @Test
    void anUnlistedTableAndAnotherSchemasTableLiveOnTheDefaultShard() {
        assertThat(split("LOCK TABLES audit WRITE, `other`.`t``q` READ NOWAIT", "shop"))
                .containsExactly(Map.entry("s1", "LOCK TABLES audit WRITE, `other`.`t``q` READ NOWAIT"));
        LockTablesStatement statement = LockTablesStatement.parse("LOCK TABLES `other`.`t``q` READ WAIT 5;").orElseThrow();
        assertThat(statement.items()).containsExactly(new LockTablesStatement.Item("other", "t`q", "`other`.`t``q` READ"));
        assertThat(statement.suffix()).isEqualTo(" WAIT 5");
    }

    @Test
    void anUnqualifiedTableWithoutACurrentSchemaIs1046() {
        assertThatThrownBy(() -> split("LOCK TABLES customers READ", null)).isInstanceOfSatisfying(ShardgateException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.NO_DATABASE_SELECTED));
        assertThat(split("LOCK TABLES shop.settings READ", null)).containsOnlyKeys("s0");
    }

    @Test
    void textItCannotReadIsNotALockTablesStatement() {
        assertThat(LockTablesStatement.parse("LOCK TABLES")).isEmpty();
        assertThat(LockTablesStatement.parse("LOCK TABLES t")).as("no lock type").isEmpty();
        assertThat(LockTablesStatement.parse("LOCK TABLES t READ,")).isEmpty();
        assertThat(LockTablesStatement.parse("LOCK TABLES t READ garbage")).isEmpty();
        assertThat(LockTablesStatement.parse("UNLOCK TABLES")).isEmpty();
        assertThat(LockTablesStatement.parse("SELECT 'LOCK TABLES t READ'")).isEmpty();
    }

    @Test
    void theFirstTableAStatementNamesIsFoundByItsTokens() {
        assertThat(LockTablesStatement.firstTable("SELECT COUNT(*) FROM `shop`.`orders` o JOIN customers c")).contains("orders");
        assertThat(LockTablesStatement.firstTable("INSERT IGNORE INTO t (a) VALUES (1)")).contains("t");
        assertThat(LockTablesStatement.firstTable("UPDATE LOW_PRIORITY shop.t SET a = 1")).contains("t");
        assertThat(LockTablesStatement.firstTable("SELECT * FROM (SELECT 1) d JOIN x")).contains("x");
        assertThat(LockTablesStatement.firstTable("SELECT 'FROM t' FROM DUAL")).isEqualTo(Optional.empty());
        assertThat(LockTablesStatement.firstTable("SELECT 1 + 1")).isEmpty();
    }
}
