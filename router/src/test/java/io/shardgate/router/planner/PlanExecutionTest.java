package io.shardgate.router.planner;

import io.shardgate.router.value.SqlValue;
import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import io.shardgate.router.exec.ColumnMeta;
import io.shardgate.router.exec.Completion;
import io.shardgate.router.exec.Row;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.exec.ValueKind;
import io.shardgate.router.plan.Execution;
import io.shardgate.router.plan.Plan;
import io.shardgate.router.schema.Sequence;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Plans executed against {@link FakeShards}: what each shard is sent, and what the client gets. */
class PlanExecutionTest {

    private final Planner planner = new Planner(ShopSchema.create());
    private final FakeShards shards = new FakeShards();
    private final AtomicLong nextId = new AtomicLong(100);

    private RowStream run(String sql, Object... parameters) {
        Plan plan = planner.plan(sql, "shop");
        Execution execution = new Execution(shards, Arrays.stream(parameters).map(SqlValue::of).toList(), (Sequence s) -> nextId.getAndIncrement(), 1000);
        return plan.open(execution);
    }

    private static List<List<Object>> rows(RowStream stream) {
        List<List<Object>> out = new ArrayList<>();
        for (Row row = stream.next(); row != null; row = stream.next()) {
            out.add(row.values());
        }
        stream.close();
        return out;
    }

    private static ColumnMeta column(String name, ValueKind kind) {
        return ColumnMeta.of(name, kind);
    }

    @Test
    void explainShardgateOfAStatementWithPlaceholdersShowsThemWithOrWithoutValues() {
        List<List<Object>> expected = List.of(
                List.of("Route BY_KEY shop.customers shards=per execution role=REPLICA where customers.id = ?0 hash(integer)"),
                List.of("  sql: SELECT name FROM customers WHERE id = ? [?0]"));
        assertThat(rows(run("EXPLAIN SHARDGATE SELECT name FROM customers WHERE id = ?"))).as("as text").isEqualTo(expected);
        assertThat(rows(run("EXPLAIN SHARDGATE SELECT name FROM customers WHERE id = ?", 4L))).as("prepared").isEqualTo(expected);
        assertThat(planner.plan("EXPLAIN SHARDGATE SELECT name FROM customers WHERE id = ?", "shop").parameterCount()).isEqualTo(1);
        assertThat(shards.log()).isEmpty();
    }

    @Test
    void withoutShardPartitionsKeepsNativePartitionsAndEveryOtherByte() {
        assertThat(planner.withoutShardPartitions("SELECT status, AVG(total) FROM orders PARTITION (s0, s1) WHERE customer_id > ?"))
                .isEqualTo("SELECT status, AVG(total) FROM orders WHERE customer_id > ?");
        assertThat(planner.withoutShardPartitions("INSERT INTO customers PARTITION (s1) (id, name) VALUES (?, ?)"))
                .isEqualTo("INSERT INTO customers (id, name) VALUES (?, ?)");
        String native_ = "SELECT * FROM orders PARTITION (p2024) WHERE c = 'PARTITION (s1)'";
        assertThat(planner.withoutShardPartitions(native_)).isSameAs(native_);
    }

    @Test
    void aParameterPicksTheShardAtEachExecution() {
        rows(run("SELECT name FROM customers WHERE id = ?", 4L));
        rows(run("SELECT name FROM customers WHERE id = ?", "2"));
        assertThat(shards.log()).containsExactly(
                "s1: SELECT name FROM customers WHERE id = ? [4]",
                "s0: SELECT name FROM customers WHERE id = ? [2]");
    }

    @Test
    void aParameterMatchingRowsOfSeveralShardsFailsAPlanMadeForOne() {
        rows(run("SELECT COUNT(*) FROM customers WHERE id = ?", 5.5d));
        assertThat(shards.log()).as("5.5 matches no integer: one shard answers the empty count")
                .containsExactly("s0: SELECT COUNT(*) FROM customers WHERE id = ? [5.5]");
        assertThatThrownBy(() -> run("SELECT COUNT(*) FROM customers WHERE id = ?", 1e300d))
                .isInstanceOfSatisfying(ShardgateException.class, e -> assertThat(e.errno()).isEqualTo(1235))
                .hasMessageContaining("a value for shard key customers.id that matches rows of several shards");
    }

    @Test
    void anInListReachesOnlyTheOwningShards() {
        rows(run("SELECT name FROM customers WHERE id IN (?, ?)", 2L, 3L));
        assertThat(shards.log()).containsExactly("s0: SELECT name FROM customers WHERE id IN (?, ?) [2, 3]");
    }

    @Test
    void limitWithParametersIsSentAsTheirSumAndTrimmedAfterTheMerge() {
        List<ColumnMeta> id = List.of(column("id", ValueKind.INTEGER));
        shards.answer("s0", id, Row.of(2L), Row.of(3L), Row.of(6L)).answer("s1", id, Row.of(1L), Row.of(4L), Row.of(5L));
        List<List<Object>> result = rows(run("SELECT id FROM customers ORDER BY id LIMIT ?, ?", 1L, 3L));
        assertThat(result).containsExactly(List.of(2L), List.of(3L), List.of(4L));
        assertThat(shards.log()).containsExactly(
                "s0: SELECT id FROM customers ORDER BY id LIMIT ? [4]",
                "s1: SELECT id FROM customers ORDER BY id LIMIT ? [4]");
    }

    @Test
    void groupsMergeAcrossShardsAndHavingSeesTheMergedCounts() {
        List<ColumnMeta> columns = List.of(column("status", ValueKind.STRING), column("COUNT(*)", ValueKind.INTEGER));
        shards.answer("s0", columns, Row.of("open", 2L), Row.of("paid", 1L))
                .answer("s1", columns, Row.of("OPEN", 1L), Row.of("void", 5L));
        List<List<Object>> result = rows(run("SELECT status, COUNT(*) FROM orders GROUP BY status HAVING COUNT(*) > ? ORDER BY 2 DESC", 2L));
        assertThat(result).containsExactly(List.of("void", 5L), List.of("open", 3L));
        assertThat(shards.log()).containsExactly(
                "s0: SELECT status, COUNT(*) FROM orders GROUP BY status ORDER BY status",
                "s1: SELECT status, COUNT(*) FROM orders GROUP BY status ORDER BY status");
    }

    @Test
    void averageIsTheSumOfSumsOverTheSumOfCounts() {
        List<ColumnMeta> columns = List.of(new ColumnMeta("AVG(total)", ValueKind.DECIMAL, 63, 2), column("COUNT(total)", ValueKind.INTEGER));
        shards.answer("s0", columns, Row.of(new BigDecimal("10.00"), 4L)).answer("s1", columns, Row.of(new BigDecimal("5.00"), 1L));
        RowStream stream = run("SELECT AVG(total) FROM orders");
        assertThat(stream.columns()).extracting(ColumnMeta::name).containsExactly("AVG(total)");
        assertThat(stream.columns().get(0).decimals()).isEqualTo(6);
        assertThat(rows(stream)).containsExactly(List.of(new BigDecimal("3.000000")));
    }

    @Test
    void insertRowsAreSplitBySequenceAndKeyAndReportTheFirstId() {
        RowStream result = run("INSERT INTO orders (customer_id, total) VALUES (?, ?), (?, ?), (?, ?)", 1L, 5, 2L, 7, 4L, 9);
        assertThat(rows(result)).isEmpty();
        assertThat(shards.log()).containsExactly(
                "s0: INSERT INTO orders (customer_id, total, `id`) VALUES (?, ?, 101) [2, 7]",
                "s1: INSERT INTO orders (customer_id, total, `id`) VALUES (?, ?, 100), (?, ?, 102) [1, 5, 4, 9]");
        assertThat(result.completion()).isEqualTo(new Completion(2, 100, 0));
    }

    @Test
    void aGeneratedShardKeyDecidesTheShard() {
        nextId.set(4);
        rows(run("INSERT INTO customers (name) VALUES ('a'), (?)", "b"));
        assertThat(shards.log()).containsExactly(
                "s0: INSERT INTO customers (name, `id`) VALUES (?, 5) [b]",
                "s1: INSERT INTO customers (name, `id`) VALUES ('a', 4)");
    }

    @Test
    void aGivenIdIsKeptAndNullOrZeroDrawsOne() {
        rows(run("INSERT INTO orders (id, customer_id) VALUES (?, 4), (?, 4), (?, 4)", 7L, null, 0L));
        assertThat(shards.log()).containsExactly("s1: INSERT INTO orders (id, customer_id) VALUES (?, 4), (100, 4), (101, 4) [7]");
    }

    @Test
    void partitionSelectionIsCheckedPerExecution() {
        rows(run("INSERT INTO customers PARTITION (s1) (id, name) VALUES (?, 'x')", 4L));
        assertThat(shards.log()).containsExactly("s1: INSERT INTO customers (id, name) VALUES (?, 'x') [4]");
        assertThatThrownBy(() -> run("INSERT INTO customers PARTITION (s1) (id, name) VALUES (?, 'x')", 2L))
                .isInstanceOfSatisfying(ShardgateException.class, e -> {
                    assertThat(e.errno()).isEqualTo(1748);
                    assertThat(e.sqlState()).isEqualTo("HY000");
                })
                .hasMessage("Found a row not matching the given partition set");
    }

    @Test
    void badKeysFailAsTheServerWould() {
        assertThatThrownBy(() -> run("INSERT INTO orders (id, customer_id) VALUES (1, ?)", (Object) null))
                .hasMessage("Column 'customer_id' cannot be null");
        assertThatThrownBy(() -> run("INSERT INTO orders (id, customer_id) VALUES (1, ?)", "7x"))
                .hasMessage("Incorrect integer value: '7x' for column `shop`.`orders`.`customer_id` at row 1");
        assertThat(shards.sent).isEmpty();
    }

    @Test
    void ddlRunsEverywhereAndNamesTheShardsThatFailed() {
        assertThat(run("ALTER TABLE orders ADD COLUMN note TEXT").completion()).isEqualTo(new Completion(1, 0, 0));
        shards.fail("s1", "Duplicate column name 'note'");
        assertThatThrownBy(() -> run("ALTER TABLE orders ADD COLUMN note TEXT"))
                .isInstanceOfSatisfying(ShardgateException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.DDL_PARTIALLY_FAILED);
                    // ER_QUERY_ON_FOREIGN_DATA_SOURCE, not 1105: that one means a bug in Shardgate (issue 16).
                    assertThat(e.code().errno()).isEqualTo(1430);
                    assertThat(e.code().sqlState()).isEqualTo("HY000");
                })
                .hasMessage("The statement failed on shard(s) s1 and succeeded on s0: Duplicate column name 'note'");
    }

    @Test
    void ddlCountsTheWarningsOfEveryShard() {
        shards.warn("s1", 1);
        assertThat(run("ALTER TABLE customers ADD COLUMN note TEXT").completion()).isEqualTo(new Completion(1, 0, 1));
        shards.warn("s0", 2);
        assertThat(run("ALTER TABLE orders ADD COLUMN note TEXT").completion()).isEqualTo(new Completion(1, 0, 3));
    }

    @Test
    void scatteredWritesAddUpAffectedRowsAndReferenceWritesCountOneCopy() {
        RowStream scatter = run("UPDATE customers SET name = 'x' WHERE name = 'y'");
        assertThat(rows(scatter)).isEmpty();
        assertThat(scatter.completion().affectedRows()).isEqualTo(2);
        RowStream everywhere = run("UPDATE countries SET name = 'x'");
        assertThat(rows(everywhere)).isEmpty();
        assertThat(everywhere.completion().affectedRows()).as("every shard holds the same copy").isEqualTo(1);
    }

    @Test
    void theParameterCountMustMatch() {
        assertThatThrownBy(() -> run("SELECT * FROM customers WHERE id = ?"))
                .isInstanceOfSatisfying(ShardgateException.class, e -> assertThat(e.errno()).isEqualTo(1210))
                .hasMessage("Incorrect arguments to EXECUTE: expected 1 parameters, got 0");
    }

    @Test
    void explainShardgateAnswersWithoutAShard() {
        RowStream stream = run("EXPLAIN SHARDGATE SELECT * FROM customers WHERE id = ?", 4L);
        assertThat(stream.columns()).extracting(ColumnMeta::name).containsExactly("plan");
        assertThat(rows(stream)).containsExactly(
                List.of("Route BY_KEY shop.customers shards=per execution role=REPLICA where customers.id = ?0 hash(integer)"),
                List.of("  sql: SELECT * FROM customers WHERE id = ? [?0]"));
        assertThat(shards.sent).isEmpty();
    }

    @Test
    void aTableReferenceWithoutATableNameIsRefusedNotAnInternalError() {
        // Found by ShardedPacketFuzzIT: the parser reads "t@" as a user name, whose table name is null.
        assertThatThrownBy(() -> planner.plan("SELECT * FROM customers@", "shop"))
                .isInstanceOfSatisfying(ShardgateException.class, e -> assertThat(e.errno()).isEqualTo(1235))
                .hasMessageContaining("a table reference without a table name");
        for (String sql : List.of("DROP TABLE customers@", "ALTER TABLE customers@ ADD COLUMN x INT", "DELETE FROM customers@")) {
            assertThatThrownBy(() -> planner.plan(sql, "shop")).as(sql)
                    .isInstanceOfSatisfying(ShardgateException.class, e -> assertThat(e.errno()).isEqualTo(1235));
        }
    }

    @Test
    void textTheParserFailsOnInternallyIsRefusedNotAnInternalError() {
        // Found by ShardedPacketFuzzIT: Druid casts a number before '@' to an identifier (ClassCastException).
        for (String sql : List.of("SELECT 1@a FROM customers", "SELECT 1@'h' FROM customers", "SELECT 0x1@b")) {
            assertThatThrownBy(() -> planner.plan(sql, "shop")).as(sql)
                    .isInstanceOfSatisfying(ShardgateException.class, e -> assertThat(e.errno()).isEqualTo(1235));
        }
    }
}
