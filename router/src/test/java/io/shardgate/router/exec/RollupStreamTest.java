package io.shardgate.router.exec;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;

import static io.shardgate.router.exec.FakeStream.drain;
import static io.shardgate.router.exec.FakeStream.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** GROUP BY ... WITH ROLLUP merged from shards that grouped without ROLLUP. */
class RollupStreamTest {

    private static SortKey asc(int column) {
        return new SortKey(ColumnRef.at(column), false);
    }

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }

    @Test
    void superAggregateRowsFollowTheirGroupsAndTheGrandTotalComesLast() {
        RowStream merged = new MergeSortStream(List.of(
                table("""
                        a:STRING | b:INTEGER | n:INTEGER | s:DECIMAL | c:INTEGER
                        x | 1 | 2 | 10 | 2
                        y | 1 | 1 | 4 | 1
                        """),
                table("""
                        a:STRING | b:INTEGER | n:INTEGER | s:DECIMAL | c:INTEGER
                        NULL | 3 | 1 | 1 | 1
                        x | 1 | 1 | 5 | 1
                        x | 2 | 3 | 3 | 3
                        """)), List.of(asc(0), asc(1)));
        RollupStream rollup = new RollupStream(merged, List.of(asc(0), asc(1)), List.of(
                Aggregate.of(AggregateFunction.COUNT, ColumnRef.at(2)), Aggregate.avg(ColumnRef.at(3), ColumnRef.at(4))));
        assertThat(drain(rollup)).containsExactly(
                row(null, 3L, 1L, new BigDecimal("1.0000"), 1L),
                row(null, null, 1L, new BigDecimal("1.0000"), 1L),
                row("x", 1L, 3L, new BigDecimal("5.0000"), 3L),
                row("x", 2L, 3L, new BigDecimal("1.0000"), 3L),
                row("x", null, 6L, new BigDecimal("3.0000"), 6L),
                row("y", 1L, 1L, new BigDecimal("4.0000"), 1L),
                row("y", null, 1L, new BigDecimal("4.0000"), 1L),
                row(null, null, 8L, new BigDecimal("2.8750"), 8L));
    }

    @Test
    void noRowsGiveNoRows() {
        RowStream empty = new MergeSortStream(List.of(table("a:STRING | n:INTEGER"), table("a:STRING | n:INTEGER")), List.of(asc(0)));
        assertThat(drain(new RollupStream(empty, List.of(asc(0)), List.of(Aggregate.of(AggregateFunction.COUNT, ColumnRef.at(1))))))
                .isEmpty();
    }

    @Test
    void aDistinctAggregateCannotRollUp() {
        assertThatThrownBy(() -> new RollupStream(table("a:STRING | n:INTEGER | x:INTEGER"), List.of(asc(0)),
                List.of(Aggregate.distinct(AggregateFunction.COUNT, ColumnRef.at(1), ColumnRef.at(2)))))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
