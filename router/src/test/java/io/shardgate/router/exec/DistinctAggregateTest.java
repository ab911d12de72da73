package io.shardgate.router.exec;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;

import static io.shardgate.router.exec.FakeStream.drain;
import static io.shardgate.router.exec.FakeStream.table;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * COUNT/SUM/AVG(DISTINCT x) merged from shards that grouped by x too: each shard has each x once per
 * group, but two shards may both have it; the merge, sorted by x within the group, counts it once.
 */
class DistinctAggregateTest {

    private static SortKey asc(int column) {
        return new SortKey(ColumnRef.at(column), false);
    }

    @Test
    void aValueOnTwoShardsCountsOnceAndNullsNotAtAll() {
        // g | COUNT(DISTINCT x) | SUM(DISTINCT x) | AVG(DISTINCT x) | COUNT(*) | x: the shards' rows per (g, x)
        RowStream merged = new MergeSortStream(List.of(
                table("""
                        g:INTEGER | c:INTEGER | s:DECIMAL | a:DECIMAL | n:INTEGER | x:INTEGER
                        1 | 1 | 1 | 1 | 3 | 1
                        1 | 1 | 2 | 2 | 1 | 2
                        2 | 1 | 5 | 5 | 1 | 5
                        """),
                table("""
                        g:INTEGER | c:INTEGER | s:DECIMAL | a:DECIMAL | n:INTEGER | x:INTEGER
                        1 | 0 | NULL | NULL | 2 | NULL
                        1 | 1 | 2 | 2 | 1 | 2
                        1 | 1 | 4 | 4 | 1 | 4
                        2 | 1 | 5 | 5 | 2 | 5
                        """)), List.of(asc(0), asc(5)));
        RowStream grouped = new GroupByStream(merged, List.of(asc(0)), List.of(
                Aggregate.distinct(AggregateFunction.COUNT, ColumnRef.at(1), ColumnRef.at(5)),
                Aggregate.distinct(AggregateFunction.SUM, ColumnRef.at(2), ColumnRef.at(5)),
                Aggregate.distinct(AggregateFunction.AVG, ColumnRef.at(3), ColumnRef.at(5)),
                Aggregate.of(AggregateFunction.COUNT, ColumnRef.at(4))));
        List<List<Object>> rows = drain(grouped);
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).subList(0, 5)).containsExactly(1L, 3L, 7L, new BigDecimal("2.33"), 8L);
        assertThat(rows.get(1).subList(0, 5)).containsExactly(2L, 1L, 5L, new BigDecimal("5.00"), 3L);
    }

    @Test
    void valuesEqualUnderTheCollationAreOneValue() {
        RowStream merged = new MergeSortStream(List.of(
                table("c:INTEGER | x:STRING\n1 | a\n1 | b"),
                table("c:INTEGER | x:STRING\n1 | A\n1 | B\n1 | c")), List.of(asc(1)));
        RowStream counted = new AggregateStream(merged, List.of(Aggregate.distinct(AggregateFunction.COUNT, ColumnRef.at(0), ColumnRef.at(1))));
        assertThat(drain(counted).get(0).get(0)).isEqualTo(3L);
        RowStream binary = new MergeSortStream(List.of(
                table("c:INTEGER | x:STRING/utf8mb4_bin\n1 | a"), table("c:INTEGER | x:STRING/utf8mb4_bin\n1 | A")), List.of(asc(1)));
        RowStream countedBinary = new AggregateStream(binary, List.of(Aggregate.distinct(AggregateFunction.COUNT, ColumnRef.at(0), ColumnRef.at(1))));
        assertThat(drain(countedBinary).get(0).get(0)).isEqualTo(2L);
    }

    @Test
    void noRowsAtAllIsCountZeroAndNullSumAndAverage() {
        RowStream empty = new MergeSortStream(List.of(table("c:INTEGER | s:DECIMAL | a:DECIMAL | x:INTEGER"),
                table("c:INTEGER | s:DECIMAL | a:DECIMAL | x:INTEGER")), List.of(asc(3)));
        RowStream merged = new AggregateStream(empty, List.of(
                Aggregate.distinct(AggregateFunction.COUNT, ColumnRef.at(0), ColumnRef.at(3)),
                Aggregate.distinct(AggregateFunction.SUM, ColumnRef.at(1), ColumnRef.at(3)),
                Aggregate.distinct(AggregateFunction.AVG, ColumnRef.at(2), ColumnRef.at(3))));
        assertThat(drain(merged).get(0).subList(0, 3)).isEqualTo(Arrays.asList(0L, null, null));
    }

    @Test
    void onlyCountSumAndAverageHaveADistinctMerge() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Aggregate.distinct(AggregateFunction.MIN, ColumnRef.at(0), ColumnRef.at(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Aggregate.distinct(AggregateFunction.COUNT, ColumnRef.at(0), ColumnRef.at(1)).toString())
                .isEqualTo("COUNT(DISTINCT #1 in #0)");
    }
}
