package io.shardgate.router.planner;

import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import io.shardgate.router.exec.ColumnMeta;
import io.shardgate.router.exec.Completion;
import io.shardgate.router.exec.Row;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.exec.ShardCursor;
import io.shardgate.router.exec.ShardStatement;
import io.shardgate.router.exec.Streams;
import io.shardgate.router.exec.ValueKind;
import io.shardgate.router.plan.Execution;
import io.shardgate.router.plan.Plan;
import io.shardgate.router.schema.Sequence;
import io.shardgate.router.value.SqlValue;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * INSERT ... SELECT into a table fed by a global sequence: the SELECT runs first, and its rows are
 * inserted with drawn ids, each on its shard, their values bound as parameters.
 */
class InsertFromSelectTest {

    /** Shards whose SELECTs return the rows given them and whose writes report one affected row per inserted row. */
    private static final class Shards implements ShardCursor {
        final Map<String, List<Row>> rows = new HashMap<>();
        final List<ShardStatement> sent = new ArrayList<>();

        @Override
        public RowStream execute(ShardStatement statement) {
            sent.add(statement);
            if (statement.sql().startsWith("SELECT")) {
                return Streams.of(List.of(ColumnMeta.of("a", ValueKind.INTEGER), ColumnMeta.of("b", ValueKind.INTEGER)),
                        rows.getOrDefault(statement.shard(), List.of()));
            }
            long inserted = statement.sql().chars().filter(c -> c == '(').count() - 1;
            return Streams.completed(new Completion(inserted, 0, 0));
        }

        List<String> log() {
            return sent.stream().map(s -> s.shard() + ": " + s.sql() + (s.parameters().isEmpty() ? "" : " " + s.parameters())).toList();
        }
    }

    private final Planner planner = new Planner(ShopSchema.create());
    private final Shards shards = new Shards();
    private final AtomicLong nextId = new AtomicLong(100);

    private Completion run(String sql, long maxBufferedRows, Object... parameters) {
        Plan plan = planner.plan(sql, "shop");
        Execution execution = new Execution(shards, Arrays.stream(parameters).map(SqlValue::of).toList(), (Sequence s) -> nextId.getAndIncrement(),
                maxBufferedRows);
        try (RowStream stream = plan.open(execution)) {
            assertThat(stream.next()).isNull();
            return stream.completion();
        }
    }

    @Test
    void theIssuesExampleReadsOnItsShardAndInsertsWithADrawnId() {
        shards.rows.put("s0", List.of(Row.of(7L, new BigDecimal("9.99"))));
        Completion done = run("INSERT INTO orders (customer_id, amount) SELECT id, 9.99 FROM customers WHERE id = 7", 1000);
        assertThat(shards.log()).containsExactly(
                "s0: SELECT id, 9.99 FROM customers WHERE id = 7",
                "s0: INSERT INTO orders (customer_id, amount, `id`) VALUES (?, ?, 100) [7, 9.99]");
        assertThat(done.affectedRows()).isEqualTo(1);
        assertThat(done.lastInsertId()).isEqualTo(100);
    }

    @Test
    void rowsReadOnEveryShardGoToTheShardOfTheirKey() {
        shards.rows.put("s0", List.of(Row.of(7L, 1L), Row.of(9L, 2L)));
        shards.rows.put("s1", List.of(Row.of(4L, 3L)));
        Completion done = run("INSERT INTO orders (customer_id, amount) SELECT id, 1 FROM customers", 1000);
        assertThat(shards.log()).containsExactly(
                "s0: SELECT id, 1 FROM customers",
                "s1: SELECT id, 1 FROM customers",
                "s0: INSERT INTO orders (customer_id, amount, `id`) VALUES (?, ?, 100), (?, ?, 101) [7, 1, 9, 2]",
                "s1: INSERT INTO orders (customer_id, amount, `id`) VALUES (?, ?, 102) [4, 3]");
        assertThat(done.affectedRows()).isEqualTo(3);
        assertThat(done.lastInsertId()).isEqualTo(100);
    }

    @Test
    void statementParametersKeepTheirPlacesAfterTheRowValues() {
        shards.rows.put("s1", List.of(Row.of(4L, 3L)));
        run("INSERT INTO orders (customer_id, amount) SELECT id, 1 FROM customers WHERE id = ? ON DUPLICATE KEY UPDATE amount = amount + ?",
                1000, 4L, 5L);
        assertThat(shards.log()).containsExactly(
                "s1: SELECT id, 1 FROM customers WHERE id = ? [4]",
                "s1: INSERT INTO orders (customer_id, amount, `id`) VALUES (?, ?, 100) ON DUPLICATE KEY UPDATE amount = amount + ? [4, 3, 5]");
    }

    @Test
    void aGivenIdIsKeptAndZeroDrawsOne() {
        shards.rows.put("s0", List.of(Row.of(55L, 7L, 1L), Row.of(0L, 7L, 2L)));
        run("INSERT INTO orders (id, customer_id, amount) SELECT x, id, 1 FROM customers WHERE id = 7", 1000);
        assertThat(shards.log().get(1)).isEqualTo("s0: INSERT INTO orders (id, customer_id, amount) VALUES (?, ?, ?), (100, ?, ?) [55, 7, 1, 7, 2]");
    }

    @Test
    void manyRowsGoInBatches() {
        List<Row> many = new ArrayList<>();
        for (int i = 0; i < 1200; i++) {
            many.add(Row.of(7L, (long) i));
        }
        shards.rows.put("s0", many);
        Completion done = run("INSERT INTO orders (customer_id, amount) SELECT id, n FROM customers WHERE id = 7", 5000);
        assertThat(shards.sent).hasSize(4);
        assertThat(shards.sent.subList(1, 4)).extracting(s -> s.parameters().size()).containsExactly(1000, 1000, 400);
        assertThat(done.affectedRows()).isEqualTo(1200);
        assertThat(done.lastInsertId()).isEqualTo(100);
        assertThat(nextId.get()).isEqualTo(1300);
    }

    @Test
    void moreRowsThanTheLimitIsAClearErrorAndNothingIsInserted() {
        shards.rows.put("s0", List.of(Row.of(7L, 1L), Row.of(7L, 2L), Row.of(7L, 3L)));
        assertThatThrownBy(() -> run("INSERT INTO orders (customer_id, amount) SELECT id, n FROM customers WHERE id = 7", 2))
                .isInstanceOfSatisfying(ShardgateException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.BUFFER_LIMIT);
                    assertThat(e.getMessage()).isEqualTo("Shardgate buffered more than 2 rows for INSERT ... SELECT into "
                            + "shop.orders; narrow the query or raise the row limit");
                });
        assertThat(shards.log()).containsExactly("s0: SELECT id, n FROM customers WHERE id = 7");
    }

    @Test
    void aSelectThatReturnsNoRowsInsertsNothing() {
        Completion done = run("INSERT INTO orders (customer_id, amount) SELECT id, 1 FROM customers WHERE id = 7", 1000);
        assertThat(done).isEqualTo(Completion.NONE);
        assertThat(shards.log()).containsExactly("s0: SELECT id, 1 FROM customers WHERE id = 7");
    }
}
