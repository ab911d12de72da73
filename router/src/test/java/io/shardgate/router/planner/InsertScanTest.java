package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLStatement;
import com.alibaba.druid.sql.dialect.mysql.parser.MySqlStatementParser;
import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import io.shardgate.router.exec.Role;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.plan.Execution;
import io.shardgate.router.plan.InsertSplit;
import io.shardgate.router.plan.PlanNode;
import io.shardgate.router.schema.Sequence;
import io.shardgate.router.schema.ShardingSchema;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The token-only INSERT planner: it takes the bulk-load shape and sends what the parsed path sends
 * (shard by shard, row by row, each row's text as written), and leaves every other shape to the parse.
 */
class InsertScanTest {
    private final ShardingSchema schema = ShopSchema.create();

    private PlanContext context(String sql) {
        return new PlanContext(schema, new TableResolver(schema, "shop"), Tokens.of(sql), Role.PRIMARY, io.shardgate.router.schema.ColumnCatalog.NONE);
    }

    private Optional<InsertSplit> scan(String sql) {
        return new InsertScan(context(sql)).plan();
    }

    private PlanNode parsed(String sql) {
        SQLStatement statement = new MySqlStatementParser(sql).parseStatementList().get(0);
        return new InsertPlanner(context(sql)).plan(statement);
    }

    /** "shard: sql" of what a plan sends, and the completion it reports. */
    private static List<String> sent(PlanNode plan) {
        FakeShards shards = new FakeShards();
        Execution execution = new Execution(shards, List.of(), (Sequence s) -> {
            throw new AssertionError("no sequence value is drawn");
        }, 1000);
        try (RowStream stream = plan.open(execution)) {
            assertThat(stream.next()).isNull();
            return java.util.stream.Stream.concat(shards.log().stream(), java.util.stream.Stream.of("affected " + stream.completion().affectedRows()))
                    .toList();
        }
    }

    private void assertSameAsParsed(String sql) {
        InsertSplit fast = scan(sql).orElseThrow(() -> new AssertionError("not scanned: " + sql));
        assertThat(sent(fast)).as(sql).isEqualTo(sent(parsed(sql)));
        assertThat(new Planner(schema).plan(sql, "shop").root()).as("the planner takes the scan").isEqualTo(fast);
    }

    @Test
    void bulkLoadRowsGoToTheShardsTheParsedPathPicksWithTheirTextAsWritten() {
        assertSameAsParsed("INSERT INTO sbtest1 (id, k, c, pad) VALUES (1, 2, 'a', 'b'), (2, -3, 'c', 'd'), (3, 4, 'e', 'f'), (4, 5, 'g', 'h')");
        assertSameAsParsed("INSERT INTO shop.sbtest1 (`id`, k, c, pad) VALUES (-7, 2, 'a', 'b'), (0, 3, 'c', 'd')");
        assertSameAsParsed("INSERT IGNORE INTO `shop`.`sbtest1` (id, k) VALUES (4, 5)");
        assertSameAsParsed("REPLACE INTO sbtest1 (id, k) VALUES (4, 5), (5, 6)");
        assertSameAsParsed("INSERT sbtest1 (id, k) VALUE (4, 5)");
        assertSameAsParsed("INSERT INTO tickets (customer_id, what) VALUES ('Alice', 1), ('bob''s', 2), ('', 3)");
        assertSameAsParsed("INSERT INTO customers (id, name) VALUES (4, 'given key'), (5, 'number')");
        assertSameAsParsed("INSERT INTO orders (id, customer_id, total) VALUES (10, 1, 5.00), (11, 2, 7.50), (12, 3, 1e3), (13, 4, -.5)");
        assertSameAsParsed("INSERT INTO events (region, what) VALUES ('eu', 1), ('US', 2)");
        assertSameAsParsed("INSERT INTO ledger (account_id, amount) VALUES (5, 1), (5000, 2)");
    }

    @Test
    void aRowIsCopiedWholeWhateverItsStringsCommentsAndLiteralsHold() {
        String sql = "INSERT INTO sbtest1 (id,k,c,pad) VALUES (1,2,'),(3,4','q'),/* between */(2,-3,'it''s a \\\\ back\\'slash',NULL)"
                + " -- rows\n,(3, /* inside */ 0x1F, X'0A0b', b'101'),(4,TRUE,N'national',0b11) # end";
        InsertSplit split = scan(sql).orElseThrow();
        assertThat(split.rows()).extracting(r -> r.text().orElseThrow()).containsExactly("(1,2,'),(3,4','q')",
                "(2,-3,'it''s a \\\\ back\\'slash',NULL)", "(3, /* inside */ 0x1F, X'0A0b', b'101')", "(4,TRUE,N'national',0b11)");
        assertThat(split.prefix()).isEqualTo("INSERT INTO sbtest1 (id,k,c,pad) VALUES ");
        assertThat(split.suffix()).isEqualTo(" # end");
        List<String> sent = sent(split);
        assertThat(sent).containsExactlyInAnyOrder(
                "s1: INSERT INTO sbtest1 (id,k,c,pad) VALUES (1,2,'),(3,4','q'), (4,TRUE,N'national',0b11) # end",
                "s0: INSERT INTO sbtest1 (id,k,c,pad) VALUES (2,-3,'it''s a \\\\ back\\'slash',NULL), (3, /* inside */ 0x1F, X'0A0b', b'101') # end",
                "affected 2");
    }

    @Test
    void aDumpsInsertWithoutColumnListIsScannedWhenTheColumnsAreKnownAndSendsWhatTheParsedPathSends() {
        String sql = "INSERT INTO `orders` VALUES (10, 4, 1.50, 'paid', 'fr', 'c', NULL, '2024-01-01'),\n(11, 2, '2.5', NULL, NULL, NULL, NULL, NULL),\n"
                + "(12, 1, NULL, 'open', 'us', 'c', 0.5, NULL)";
        PlanContext known = new PlanContext(schema, new TableResolver(schema, "shop"), Tokens.of(sql), Role.PRIMARY, ShopSchema.columns());
        InsertSplit fast = new InsertScan(known).plan().orElseThrow(() -> new AssertionError("not scanned: " + sql));
        SQLStatement statement = new MySqlStatementParser(sql).parseStatementList().get(0);
        assertThat(sent(fast)).isEqualTo(sent(new InsertPlanner(known).plan(statement))).containsExactlyInAnyOrder(
                "s1: INSERT INTO `orders` VALUES (10, 4, 1.50, 'paid', 'fr', 'c', NULL, '2024-01-01'), (12, 1, NULL, 'open', 'us', 'c', 0.5, NULL)",
                "s0: INSERT INTO `orders` VALUES (11, 2, '2.5', NULL, NULL, NULL, NULL, NULL)", "affected 2");
        assertThat(new Planner(schema, ShopSchema.columns()).plan(sql, "shop").root()).as("the planner takes the scan").isEqualTo(fast);
        assertThat(scan(sql)).as("columns unknown: left to the parsed path, which refuses it").isEmpty();
        assertThat(new InsertScan(new PlanContext(schema, new TableResolver(schema, "shop"), Tokens.of("INSERT INTO orders VALUES (10, 4)"),
                Role.PRIMARY, ShopSchema.columns())).plan()).as("a row short of a value").isEmpty();
    }

    @Test
    void aThousandRowsSplitInStatementOrderOnEachShard() {
        String rows = IntStream.rangeClosed(1, 1000).mapToObj(i -> "(" + i + ", " + (i % 7) + ", 'c" + i + "', 'p')")
                .collect(Collectors.joining(", "));
        assertSameAsParsed("INSERT INTO sbtest1 (id, k, c, pad) VALUES " + rows);
    }

    @Test
    void otherShapesAreLeftToTheParsedPath() {
        for (String sql : List.of(
                "INSERT INTO sbtest1 (id, k) VALUES (?, 1)",
                "INSERT INTO sbtest1 (id, k) VALUES (1, ?)",
                "INSERT INTO sbtest1 (id, k) VALUES (1, k + 1)",
                "INSERT INTO sbtest1 (id, k) VALUES (1, NOW())",
                "INSERT INTO sbtest1 (id, k) VALUES (1 + 1, 2)",
                "INSERT INTO sbtest1 (id, k) VALUES (+1, 2)",
                "INSERT INTO sbtest1 (id, k) VALUES (NULL, 2)",
                "INSERT INTO sbtest1 (id, k) VALUES (4.0, 2)",
                "INSERT INTO sbtest1 (id, k) VALUES (0x04, 2)",
                "INSERT INTO sbtest1 (id, k) VALUES (X'04', 2)",
                "INSERT INTO sbtest1 (id, k) VALUES ('a\\'b', 2)",
                "INSERT INTO sbtest1 (id, k) VALUES (\"4\", 2)",
                "INSERT INTO sbtest1 (id, k) VALUES (_utf8mb4'4', 2)",
                "INSERT INTO sbtest1 (id, k) VALUES (12345678901234567890, 2)",
                "INSERT INTO sbtest1 (id, k) VALUES (1, 2, 3)",
                "INSERT INTO sbtest1 (id, k) VALUES (1)",
                "INSERT INTO sbtest1 (id, k) VALUES (1, 2);",
                "INSERT INTO sbtest1 (id, k) VALUES (1, 2),",
                "INSERT INTO sbtest1 (id, k) VALUES (1, 2), 3",
                "INSERT INTO sbtest1 (id, k) VALUES",
                "REPLACE IGNORE INTO sbtest1 (id, k) VALUES (1, 2)",
                "INSERT INTO IGNORE (id, k) VALUES (1, 2)",
                "INSERT INTO sbtest1 (id, k) VALUES (1, 2) ON DUPLICATE KEY UPDATE k = 3",
                "INSERT INTO sbtest1 (id, k) VALUES (1, 'a' 'b')",
                "INSERT INTO sbtest1 (id, k) VALUES (1, \"double-quoted\")",
                "INSERT INTO sbtest1 (id, k) VALUES (1, DEFAULT)",
                "INSERT INTO sbtest1 PARTITION (s0) (id, k) VALUES (1, 2)",
                "INSERT INTO sbtest1 SET id = 1, k = 2",
                "INSERT INTO sbtest1 (k) VALUES (2)",
                "INSERT INTO sbtest1 VALUES (1, 2)",
                "INSERT INTO sbtest1 (id, k) SELECT id, k FROM sbtest1",
                "INSERT /*! IGNORE */ INTO sbtest1 (id, k) VALUES (1, 2)",
                "INSERT /*M!100000 IGNORE */ INTO sbtest1 (id, k) VALUES (1, 2)",
                "INSERT INTO sbtest1 (id, k) VALUES (1, 2) /*!, (3, 4) */",
                "INSERT INTO customers (id, name) VALUES (0, 'drawn')",
                "INSERT INTO customers (name) VALUES ('drawn')",
                "INSERT INTO orders (id, customer_id) VALUES (NULL, 4)",
                "INSERT INTO orders (id, customer_id) VALUES ('7', 4)",
                "INSERT INTO customers (id, name) VALUES ('4', 'string key for a sequence column')",
                "INSERT INTO settings (name, value) VALUES ('a', 1)",
                "INSERT INTO countries (code, name) VALUES ('fr', 'France')",
                "UPDATE sbtest1 SET k = 1 WHERE id = 1")) {
            assertThat(scan(sql)).as(sql).isEmpty();
        }
    }

    @Test
    void aKeyNoShardTakesFailsAsOnTheParsedPath() {
        String sql = "INSERT INTO ledger (account_id, amount) VALUES ('x', 1)";
        assertThatThrownBy(() -> scan(sql)).isInstanceOf(ShardgateException.class)
                .hasMessage(catchMessage(() -> parsed(sql)));
        assertThat(scan("INSERT INTO nowhere (id) VALUES (1)")).as("a table the rules do not list is unsharded: no split")
                .isEmpty();
    }

    private static String catchMessage(Runnable work) {
        try {
            work.run();
        } catch (ShardgateException e) {
            return e.getMessage();
        }
        throw new AssertionError("no error");
    }
}
