package io.shardgate.router.planner;

import io.shardgate.errors.ShardgateException;
import io.shardgate.router.exec.ColumnMeta;
import io.shardgate.router.exec.Row;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.exec.ShardCursor;
import io.shardgate.router.exec.ShardStatement;
import io.shardgate.router.exec.ValueKind;
import io.shardgate.router.plan.Execution;
import io.shardgate.router.plan.Plan;
import io.shardgate.router.plan.SubqueryPullout;
import io.shardgate.router.schema.Sequence;
import io.shardgate.router.value.SqlValue;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Subqueries over other shards run first; their result takes their place in the statement, which runs then. */
class SubqueryPulloutTest {
    private static final List<ColumnMeta> ID = List.of(ColumnMeta.of("id", ValueKind.INTEGER));

    private final Planner planner = new Planner(ShopSchema.create());
    private final FakeShards shards = new FakeShards();
    private final List<ShardStatement> forSubqueries = new ArrayList<>();

    private List<List<Object>> run(String sql, Object... parameters) {
        Plan plan = planner.plan(sql, "shop");
        assertThat(plan.root()).isInstanceOf(SubqueryPullout.class);
        ShardCursor cursor = new ShardCursor() {
            @Override
            public RowStream execute(ShardStatement statement) {
                return shards.execute(statement);
            }

            @Override
            public ShardCursor forSubquery() {
                return statement -> {
                    forSubqueries.add(statement);
                    return shards.execute(statement);
                };
            }
        };
        Execution execution = new Execution(cursor, Arrays.stream(parameters).map(SqlValue::of).toList(), (Sequence s) -> 1L, 1000);
        List<List<Object>> out = new ArrayList<>();
        try (RowStream stream = plan.open(execution)) {
            for (Row row = stream.next(); row != null; row = stream.next()) {
                out.add(row.values());
            }
        }
        return out;
    }

    @Test
    void anInListGetsTheSubquerysValuesAsParametersAndIsRoutedByThem() {
        shards.answer("s0", ID, Row.of(2L)).answer("s1", ID, Row.of(4L));
        run("SELECT * FROM customers WHERE id IN (SELECT id FROM orders WHERE total > 10)");
        assertThat(forSubqueries).extracting(ShardStatement::sql).containsOnly("SELECT id FROM orders WHERE total > 10");
        assertThat(shards.log()).containsExactly(
                "s0: SELECT id FROM orders WHERE total > 10",
                "s1: SELECT id FROM orders WHERE total > 10",
                "s0: SELECT * FROM customers WHERE id IN (?, ?) [2, 4]",
                "s1: SELECT * FROM customers WHERE id IN (?, ?) [2, 4]");
    }

    @Test
    void anEmptySubqueryKeepsNotInTrue() {
        shards.answer("s0", ID).answer("s1", ID);
        run("SELECT COUNT(*) FROM customers WHERE country NOT IN (SELECT country FROM customers WHERE id < 0)");
        assertThat(shards.log()).contains(
                "s0: SELECT COUNT(*) FROM customers WHERE country NOT IN (SELECT NULL FROM DUAL WHERE FALSE)");
    }

    @Test
    void aScalarSubqueryBindsItsOwnParametersAndTheStatementKeepsTheOthers() {
        shards.answer("s0", ID, Row.of(4L)).answer("s1", ID);
        run("SELECT name FROM customers WHERE name <> ? AND id = (SELECT MAX(customer_id) FROM orders WHERE status = ?) AND id > ?",
                "x", "paid", 1L);
        assertThat(shards.log()).contains(
                "s0: SELECT MAX(customer_id) FROM orders WHERE status = ? [paid]",
                "s1: SELECT name FROM customers WHERE name <> ? AND id = (?) AND id > ? [x, 4, 1]");
    }

    @Test
    void aScalarSubqueryOfSeveralRowsFailsAsMariaDbDoes() {
        shards.answer("s0", ID, Row.of(1L)).answer("s1", ID, Row.of(2L));
        assertThatThrownBy(() -> run("SELECT * FROM orders WHERE total > (SELECT id FROM customers)"))
                .isInstanceOfSatisfying(ShardgateException.class, e -> {
                    assertThat(e.errno()).isEqualTo(1242);
                    assertThat(e.sqlState()).isEqualTo("21000");
                })
                .hasMessage("Subquery returns more than 1 row");
    }

    @Test
    void existsBecomesTrueOrFalse() {
        shards.answer("s0", ID).answer("s1", ID, Row.of(7L));
        run("SELECT id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM customers c WHERE c.id > 100)");
        assertThat(shards.log()).contains("s0: SELECT id FROM orders o WHERE NOT TRUE");
    }

    @Test
    void aSubqueryReferencingItsStatementIsNotPulledOut() {
        // It cannot run first: its table is copied to the statement's shards instead (CopyJoinTest).
        assertThat(planner.plan("SELECT * FROM orders o WHERE EXISTS (SELECT 1 FROM customers c WHERE c.id = o.total)", "shop").root())
                .isInstanceOf(io.shardgate.router.plan.CopyJoin.class);
    }
}
