package io.shardgate.router.planner;

import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import io.shardgate.router.exec.ColumnMeta;
import io.shardgate.router.exec.Row;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.exec.ShardCursor;
import io.shardgate.router.exec.ShardStatement;
import io.shardgate.router.exec.Streams;
import io.shardgate.router.exec.ValueKind;
import io.shardgate.router.plan.Execution;
import io.shardgate.router.schema.Sequence;
import io.shardgate.router.value.SqlValue;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** An IN subquery on other shards runs first; its values take its place and the statement is planned with them. */
class SubqueryFirstTest {

    /** Shards answering SQL on orders with the rows given per shard, on users with none, and any other statement with one row. */
    private static final class Shards implements ShardCursor {
        final Map<String, List<Row>> orders = new HashMap<>();
        final List<String> sent = new ArrayList<>();

        @Override
        public RowStream execute(ShardStatement statement) {
            sent.add(statement.shard() + ": " + statement.sql() + (statement.parameters().isEmpty() ? "" : " " + statement.parameters()));
            if (statement.sql().startsWith("SELECT id FROM users")) {
                return Streams.of(List.of(ColumnMeta.of("id", ValueKind.INTEGER)), List.of());
            }
            if (statement.sql().contains("FROM orders")) {
                return Streams.of(List.of(ColumnMeta.of("id", ValueKind.INTEGER)), orders.getOrDefault(statement.shard(), List.of()));
            }
            return Streams.of(List.of(ColumnMeta.of("name", ValueKind.STRING)), List.of(Row.of("from " + statement.shard())));
        }
    }

    private final Planner planner = new Planner(ShopSchema.create());
    private final Shards shards = new Shards();

    private List<Object> run(String sql, long limit, Object... parameters) {
        Execution execution = new Execution(shards, Arrays.stream(parameters).map(SqlValue::of).toList(), (Sequence s) -> 1, limit);
        List<Object> names = new ArrayList<>();
        try (RowStream rows = planner.plan(sql, "shop").open(execution)) {
            for (Row row = rows.next(); row != null; row = rows.next()) {
                names.add(row.get(0).toJava());
            }
        }
        return names;
    }

    @Test
    void theValuesRouteTheStatementToTheShardsOwningThem() {
        shards.orders.put("s0", List.of(Row.of(4L), Row.of(1L)));
        shards.orders.put("s1", List.of(Row.of(4L)));
        List<Object> names = run("SELECT name FROM customers WHERE id IN (SELECT id FROM orders WHERE total > ?) AND name <> ?", 100, 10L, "x");
        assertThat(shards.sent).containsExactly(
                "s0: SELECT id FROM orders WHERE total > ? [10]",
                "s1: SELECT id FROM orders WHERE total > ? [10]",
                "s1: SELECT name FROM customers WHERE id IN (?, ?) AND name <> ? [4, 1, x]");
        assertThat(names).containsExactly("from s1");
    }

    @Test
    void noValuesKeepNotInTrue() {
        run("SELECT name FROM customers WHERE id NOT IN (SELECT id FROM orders)", 100);
        assertThat(shards.sent).contains("s0: SELECT name FROM customers WHERE id NOT IN (SELECT NULL FROM DUAL WHERE 0)",
                "s1: SELECT name FROM customers WHERE id NOT IN (SELECT NULL FROM DUAL WHERE 0)");
    }

    @Test
    void moreDistinctValuesThanTheLimitIsAClearError() {
        shards.orders.put("s0", List.of(Row.of(1L), Row.of(2L), Row.of(2L)));
        shards.orders.put("s1", List.of(Row.of(3L)));
        assertThat(run("SELECT name FROM customers WHERE id IN (SELECT id FROM orders)", 3)).hasSize(2);
        assertThatThrownBy(() -> run("SELECT name FROM customers WHERE id IN (SELECT id FROM orders)", 2))
                .isInstanceOfSatisfying(ShardgateException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.BUFFER_LIMIT));
    }

    @Test
    void anEmptyResultBeforeAnotherSubqueryOnOtherShardsEndsTheRecursion() {
        shards.orders.put("s0", List.of(Row.of(4L)));
        run("SELECT name FROM customers WHERE id NOT IN (SELECT id FROM users) AND name IN (SELECT id FROM orders)", 100);
        assertThat(shards.sent).contains("s1: SELECT name FROM customers WHERE id NOT IN (SELECT NULL FROM DUAL WHERE 0) AND name IN (?) [4]");
    }
}
