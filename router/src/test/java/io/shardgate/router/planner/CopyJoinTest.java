package io.shardgate.router.planner;

import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import io.shardgate.router.exec.ColumnMeta;
import io.shardgate.router.exec.Row;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.exec.ShardStatement;
import io.shardgate.router.exec.ValueKind;
import io.shardgate.router.plan.CopyJoin;
import io.shardgate.router.plan.Execution;
import io.shardgate.router.plan.Plan;
import io.shardgate.router.schema.Sequence;
import io.shardgate.router.value.SqlValue;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A statement over tables on different shards: all tables but one are copied to that one's shards, before the statement. */
class CopyJoinTest {
    private static final List<ColumnMeta> CUSTOMER = List.of(ColumnMeta.of("id", ValueKind.INTEGER), ColumnMeta.of("name", ValueKind.STRING));

    private final Planner planner = new Planner(ShopSchema.create(), ShopSchema.columns());
    private final FakeShards shards = new FakeShards();

    private List<List<Object>> run(String sql, long limit, Object... parameters) {
        Plan plan = planner.plan(sql, "shop");
        assertThat(plan.root()).isInstanceOf(CopyJoin.class);
        Execution execution = new Execution(shards, Arrays.stream(parameters).map(SqlValue::of).toList(), (Sequence s) -> 1L, limit);
        List<List<Object>> out = new ArrayList<>();
        try (RowStream stream = plan.open(execution)) {
            for (Row row = stream.next(); row != null; row = stream.next()) {
                out.add(row.values());
            }
        }
        return out;
    }

    @Test
    void theCopiedTablesRowsReachEveryShardOfTheStatementBeforeItAndGoAfterIt() {
        shards.answer("s0", CUSTOMER, Row.of(7L, "ann")).answer("s1", CUSTOMER, Row.of(8L, "bo"), Row.of(9L, null));
        run("SELECT o.id, c.name FROM orders o JOIN customers c ON c.name = o.status WHERE c.id > 5 AND o.total > ?", 100, 3);

        List<ShardStatement> sent = shards.sent;
        assertThat(sent).hasSize(4);
        assertThat(sent.subList(0, 2)).allSatisfy(copy -> {
            assertThat(copy.sql()).as("the copy reads its table's own conditions only")
                    .isEqualTo("SELECT * FROM `shop`.`customers` AS `c` WHERE (c.id > 5)");
            assertThat(copy.before()).isEmpty();
        });
        assertThat(sent.subList(2, 4)).extracting(ShardStatement::shard).containsExactly("s0", "s1");
        for (ShardStatement statement : sent.subList(2, 4)) {
            assertThat(statement.sql()).as("the client's statement, unchanged")
                    .isEqualTo("SELECT o.id, c.name FROM orders o JOIN customers c ON c.name = o.status WHERE c.id > 5 AND o.total > ?");
            assertThat(statement.parameters()).containsExactly(SqlValue.of(3));
            assertThat(statement.before()).extracting(ShardStatement.Step::sql).containsExactly(
                    "CREATE TEMPORARY TABLE `shop`.`customers` ENGINE=InnoDB SELECT * FROM `shop`.`customers` LIMIT 0",
                    "INSERT INTO `shop`.`customers` VALUES (?, ?), (?, ?), (?, ?)");
            assertThat(statement.before().get(1).parameters())
                    .containsExactly(SqlValue.of(7L), SqlValue.of("ann"), SqlValue.of(8L), SqlValue.of("bo"), SqlValue.of(9L), SqlValue.NULL);
            assertThat(statement.after()).extracting(ShardStatement.Step::sql)
                    .containsExactly("DROP TEMPORARY TABLE IF EXISTS `shop`.`customers`");
        }
    }

    @Test
    void aLargeCopyIsInsertedInPieces() {
        Row[] rows = new Row[1_200];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = Row.of((long) i, "n" + i);
        }
        shards.answer("s0", CUSTOMER, rows).answer("s1", CUSTOMER);
        run("SELECT * FROM orders o JOIN customers c ON c.name = o.status", 10_000);
        List<ShardStatement.Step> before = shards.sent.get(2).before();
        assertThat(before).hasSize(4);
        assertThat(before.subList(1, 4)).extracting(step -> step.parameters().size()).containsExactly(1_000, 1_000, 400);
    }

    @Test
    void copiesOverTheRowLimitAreAnErrorThatSaysWhy() {
        shards.answer("s0", CUSTOMER, Row.of(1L, "a"), Row.of(2L, "b")).answer("s1", CUSTOMER, Row.of(3L, "c"));
        assertThatThrownBy(() -> run("SELECT * FROM orders o JOIN customers c ON c.name = o.status ORDER BY o.id", 2))
                .isInstanceOfSatisfying(ShardgateException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.BUFFER_LIMIT);
                    assertThat(e.getMessage()).contains("more than 2 rows").contains("shop.customers")
                            .contains("not joined on their shard keys");
                });
        assertThat(shards.sent).as("the statement never ran").hasSize(2);
    }

    @Test
    void aPlainJoinStreamsItsCopyInBatchesTheStatementRunningOncePerBatch() {
        shards.answer("s0", CUSTOMER, Row.of(1L, "a"), Row.of(2L, "b")).answer("s1", CUSTOMER, Row.of(3L, "c"));
        assertThat(planner.plan("SELECT * FROM orders o JOIN customers c ON c.name = o.status", "shop").root())
                .isInstanceOfSatisfying(CopyJoin.class, join -> assertThat(join.batched()).isTrue());
        List<List<Object>> rows = run("SELECT * FROM orders o JOIN customers c ON c.name = o.status", 2);
        assertThat(rows).as("each run's rows: the fake shards answer every statement with their rows").hasSize(6);
        List<ShardStatement> statements = shards.sent.stream().filter(s -> !s.before().isEmpty()).toList();
        assertThat(statements).extracting(ShardStatement::shard).containsExactly("s0", "s1", "s0", "s1");
        assertThat(statements).extracting(s -> s.before().get(1).parameters().size()).as("a batch of two rows, then one")
                .containsExactly(4, 4, 2, 2);

        for (String sql : List.of("SELECT * FROM orders o JOIN customers c ON c.name = o.status ORDER BY o.id",
                "SELECT o.status, COUNT(*) FROM orders o JOIN customers c ON c.name = o.status GROUP BY o.status",
                "SELECT * FROM orders o LEFT JOIN customers c ON c.name = o.status",
                "SELECT DISTINCT o.status FROM orders o JOIN customers c ON c.name = o.status",
                "SELECT * FROM orders o JOIN customers c ON c.name = o.status LIMIT 3")) {
            assertThat(planner.plan(sql, "shop").root()).as(sql)
                    .isInstanceOfSatisfying(CopyJoin.class, join -> assertThat(join.batched()).isFalse());
        }
    }

    @Test
    void conditionsOfANullableSideOrUnderAnOrStayWithTheStatement() {
        shards.answer("s0", CUSTOMER).answer("s1", CUSTOMER);
        run("SELECT * FROM orders o LEFT JOIN customers c ON c.name = o.status WHERE c.id > 5", 100);
        assertThat(shards.sent.get(0).sql()).isEqualTo("SELECT * FROM `shop`.`customers`");

        shards.sent.clear();
        run("SELECT * FROM orders o JOIN customers c ON c.name = o.status WHERE c.id > 5 OR o.id = 1", 100);
        assertThat(shards.sent.get(0).sql()).isEqualTo("SELECT * FROM `shop`.`customers`");

        shards.sent.clear();
        run("SELECT * FROM orders o JOIN customers c ON c.name = o.status WHERE c.id BETWEEN 1 AND 9 AND visits = 2 AND o.id = 1", 100);
        assertThat(shards.sent.get(0).sql()).as("an unqualified column only customers has; BETWEEN's AND is not a conjunction")
                .isEqualTo("SELECT * FROM `shop`.`customers` AS `c` WHERE (c.id BETWEEN 1 AND 9) AND (visits = 2)");
    }

    @Test
    void theDrivingTableIsTheOneAnOuterJoinKeeps() {
        shards.answer("s0", CUSTOMER).answer("s1", CUSTOMER);
        run("SELECT * FROM customers c RIGHT JOIN orders o ON c.name = o.status", 100);
        assertThat(shards.sent.get(0).sql()).as("orders' rows are all kept: customers is copied")
                .isEqualTo("SELECT * FROM `shop`.`customers`");
    }

    @Test
    void aWindowsPartitionByIsNotAPartitionClause() {
        shards.answer("s0", CUSTOMER).answer("s1", CUSTOMER);
        run("SELECT id, ROW_NUMBER() OVER (PARTITION BY country ORDER BY id) FROM customers WHERE id < 200", 100);
        assertThat(shards.sent.get(0).sql()).isEqualTo("SELECT * FROM `shop`.`customers` WHERE (id < 200)");
        assertThat(shards.sent).extracting(ShardStatement::shard).as("two copy reads, then one shard").containsExactly("s0", "s1", "s0");
    }

    @Test
    void whatACopyCannotAnswerStaysRefused() {
        for (String sql : List.of("SELECT * FROM orders o JOIN customers c ON c.name = o.status FOR UPDATE",
                "SELECT * FROM orders o JOIN customers c ON c.name = o.status LOCK IN SHARE MODE",
                "SELECT o.id INTO @x FROM orders o JOIN customers c ON c.name = o.status LIMIT 1",
                "SELECT SQL_CALC_FOUND_ROWS o.id FROM orders o JOIN customers c ON c.name = o.status LIMIT 1",
                "SELECT @n := o.id FROM orders o JOIN customers c ON c.name = o.status",
                "SELECT * FROM orders PARTITION (s0) o JOIN customers c ON c.name = o.status")) {
            assertThatThrownBy(() -> planner.plan(sql, "shop")).as(sql)
                    .isInstanceOfSatisfying(ShardgateException.class, e -> assertThat(e.errno()).isEqualTo(1235));
        }
    }
}
