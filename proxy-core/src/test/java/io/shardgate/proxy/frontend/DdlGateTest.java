package io.shardgate.proxy.frontend;

import io.shardgate.storage.capability.EngineCapabilities;
import io.shardgate.storage.capability.InnoDbCapabilities;
import io.shardgate.storage.capability.MyRocksCapabilities;
import io.shardgate.storage.capability.ServerFacts;
import io.shardgate.storage.ddl.DdlValidator;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine rules protect the tables of sharded schemas; a table of a schema that is not sharded may live in
 * any engine the server has: ENGINE=MyISAM, Aria or MEMORY passes unchanged and unchecked (issue 19, item 9).
 */
class DdlGateTest {
    private static final EngineCapabilities INNODB = InnoDbCapabilities.from(new ServerFacts("10.11.6-MariaDB",
            Map.of("INNODB", "DEFAULT"), Map.of(), Map.of("innodb_lock_wait_timeout", "50", "innodb_page_size", "16384"), Map.of(),
            Map.of()));
    private static final EngineCapabilities ROCKSDB = MyRocksCapabilities.from(new ServerFacts("10.11.6-MariaDB",
            Map.of("ROCKSDB", "DEFAULT", "INNODB", "YES"), Map.of(), Map.of("rocksdb_lock_wait_timeout", "1",
            "rocksdb_max_row_locks", "1048576"), Map.of(), Map.of()));
    private static final List<String> OTHER_ENGINES = List.of("MyISAM", "Aria", "MEMORY", "myisam");

    /** A one-shard deployment on MyRocks: no schema is sharded. */
    private final DdlGate oneShard = new DdlGate(List.of("s0"), new DdlValidator(), shard -> ROCKSDB);
    /** s0 on InnoDB, s1 on MyRocks, with the sharded schema shop. */
    private final DdlGate sharded = new DdlGate(List.of("s0", "s1"), new DdlValidator(), shard -> shard.equals("s0") ? INNODB : ROCKSDB,
            schema -> schema != null && schema.equalsIgnoreCase("shop"));

    @Test
    void aOneShardDeploymentPassesOtherEnginesThrough() {
        for (String engine : OTHER_ENGINES) {
            String sql = "CREATE TABLE t (id INT PRIMARY KEY, body TEXT, FULLTEXT (body)) ENGINE=" + engine;
            DdlGate.Outcome outcome = oneShard.check(sql, false, "app");
            assertThat(outcome.refusal()).as(sql).isNull();
            assertThat(outcome.sql()).as("unchanged: the server's own answer stands").isEqualTo(sql);
            assertThat(oneShard.check("ALTER TABLE t ENGINE=" + engine + ", ADD INDEX i (id)", false, null).refusal()).isNull();
        }
        assertThat(oneShard.check("CREATE TABLE t (id INT PRIMARY KEY, p INT REFERENCES parent (id))", false, "app").refusal())
                .as("in the shard's own engine, MyRocks' rules hold").isNotNull();
        assertThat(oneShard.check("CREATE TABLE t (id INT PRIMARY KEY) ENGINE=InnoDB", false, "app").sql())
                .as("an engine with an adapter still becomes the shard's").isEqualTo("CREATE TABLE t (id INT PRIMARY KEY) ENGINE=ROCKSDB");
    }

    @Test
    void aShardedSchemaKeepsTheEngineRules() {
        for (String engine : OTHER_ENGINES) {
            DdlGate.Outcome qualified = sharded.check("CREATE TABLE shop.t (id INT PRIMARY KEY) ENGINE=" + engine, false, "other");
            assertThat(qualified.refusal()).as(engine).isNotNull();
            assertThat(qualified.refusal().errno()).isEqualTo(1235);
            assertThat(qualified.refusal().message()).contains("would put the table in another engine");
            assertThat(sharded.check("CREATE TABLE t (id INT PRIMARY KEY) ENGINE=" + engine, false, "SHOP").refusal())
                    .as("unqualified, in the session's sharded schema").isNotNull();
        }
    }

    @Test
    void anotherSchemaOfAShardedDeploymentGoesToTheFirstShardAsItIs() {
        for (String engine : OTHER_ENGINES) {
            String sql = "CREATE TABLE t (id INT PRIMARY KEY) ENGINE=" + engine;
            DdlGate.Outcome outcome = sharded.check(sql, false, "other");
            assertThat(outcome.refusal()).as(sql).isNull();
            assertThat(outcome.perShard()).as("checked for the first shard, where it runs").isEqualTo(Map.of("s0", sql));
            assertThat(sharded.check("CREATE TABLE `other`.t (id INT PRIMARY KEY) ENGINE=" + engine, false, "shop").refusal()).isNull();
        }
        String fulltext = "CREATE TABLE t (id INT PRIMARY KEY, body TEXT, FULLTEXT (body))";
        assertThat(sharded.check(fulltext, false, "other").refusal()).as("s0 is InnoDB; MyRocks' s1 does not get it").isNull();
        assertThat(sharded.check(fulltext, false, "shop").refusal()).as("a sharded table goes to MyRocks too").isNotNull();
    }

    @Test
    void theTablesSchemaIsReadFromItsQualifiedName() {
        assertThat(DdlGate.tableSchema("CREATE TABLE shop.t (id INT)")).contains("shop");
        assertThat(DdlGate.tableSchema("create or replace temporary table if not exists `my``db`.`t` (id INT)")).contains("my`db");
        assertThat(DdlGate.tableSchema("CREATE TABLE t (id INT) ENGINE=MyISAM")).isEmpty();
        assertThat(DdlGate.tableSchema("ALTER ONLINE IGNORE TABLE db1 . t ADD c INT")).contains("db1");
        assertThat(DdlGate.tableSchema("CREATE UNIQUE INDEX `i` USING BTREE ON db2.t (c)")).contains("db2");
        assertThat(DdlGate.tableSchema("DROP INDEX IF EXISTS i ON t")).isEmpty();
        assertThat(DdlGate.tableSchema("DROP INDEX i ON /* c */ db3.t")).contains("db3");
        assertThat(DdlGate.tableSchema("CREATE TABLE")).isEqualTo(Optional.empty());
    }
}
