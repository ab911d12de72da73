package io.shardgate.router.exec;

import io.shardgate.router.value.SqlValue;

import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static io.shardgate.router.exec.FakeStream.drain;
import static io.shardgate.router.exec.FakeStream.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MergeOperatorsTest {

    private static SortKey asc(int column) {
        return new SortKey(ColumnRef.at(column), false);
    }

    private static SortKey desc(int column) {
        return new SortKey(ColumnRef.at(column), true);
    }

    @Test
    void mergeSortInterleavesSortedShardsWithNullsFirst() {
        RowStream merged = new MergeSortStream(List.of(
                table("""
                        id:INTEGER | name:STRING
                        1 | NULL
                        3 | bob
                        5 | dave
                        """),
                table("""
                        id:INTEGER | name:STRING
                        2 | Alice
                        4 | Carol
                        """)), List.of(asc(1)));
        assertThat(drain(merged)).containsExactly(row(1L, null), row(2L, "Alice"), row(3L, "bob"), row(4L, "Carol"), row(5L, "dave"));
    }

    @Test
    void mergeSortComparesNumbersAsNumbersAndStringsByCollation() {
        RowStream numbers = new MergeSortStream(List.of(
                table("n:INTEGER\n9\n100"), table("n:INTEGER\n10\n11")), List.of(asc(0)));
        assertThat(drain(numbers)).containsExactly(row(9L), row(10L), row(11L), row(100L));
        RowStream strings = new MergeSortStream(List.of(
                table("s:STRING\n10\n9"), table("s:STRING\n100")), List.of(asc(0)));
        assertThat(drain(strings)).containsExactly(row("10"), row("100"), row("9"));
        RowStream binary = new MergeSortStream(List.of(
                table("s:STRING/utf8mb4_bin\nB\na"), table("s:STRING/utf8mb4_bin\nA\nb")), List.of(asc(0)));
        assertThat(drain(binary)).containsExactly(row("A"), row("B"), row("a"), row("b"));
    }

    @Test
    void mergeSortDescendingWithSeveralKeysAndStableTies() {
        RowStream merged = new MergeSortStream(List.of(
                table("g:INTEGER | v:STRING\n2 | x\n1 | a"),
                table("g:INTEGER | v:STRING\n2 | x\n2 | y\n1 | b")), List.of(desc(0), asc(1)));
        assertThat(drain(merged)).containsExactly(row(2L, "x"), row(2L, "x"), row(2L, "y"), row(1L, "a"), row(1L, "b"));
    }

    @Test
    void mergeSortFailsClearlyOnAnUnknownCollation() {
        RowStream merged = new MergeSortStream(List.of(table("s:STRING/utf8mb4_0900_ai_ci\na")), List.of(asc(0)));
        assertThatThrownBy(merged::next)
                .isInstanceOfSatisfying(ShardgateException.class, e -> assertThat(e.errno()).isEqualTo(1235))
                .hasMessageStartingWith("Shardgate does not support ORDER BY on column 's' with collation id 999 across shards");
    }

    @Test
    void concatAddsUpCompletions() {
        RowStream both = new ConcatStream(List.of(
                table("n:INTEGER\n1", new Completion(1, 0, 1)), table("n:INTEGER\n2", new Completion(2, 7, 0))));
        assertThat(drain(both)).containsExactly(row(1L), row(2L));
        assertThat(both.completion()).isEqualTo(new Completion(3, 7, 1));
    }

    @Test
    void limitSkipsThenTrimsAndStopsReading() {
        FakeStream input = table("n:INTEGER\n1\n2\n3\n4\n5\n6");
        assertThat(drain(new LimitStream(input, 2, 3))).containsExactly(row(3L), row(4L), row(5L));
        assertThat(input.rowsRead()).isEqualTo(5);
        assertThat(input.closed).isTrue();
        assertThat(drain(new LimitStream(table("n:INTEGER\n1\n2"), 5, 3))).isEmpty();
        assertThat(drain(new LimitStream(table("n:INTEGER\n1\n2"), 0, 0))).isEmpty();
    }

    @Test
    void dropColumnsRemovesHelpers() {
        RowStream projected = new DropColumnsStream(table("a:INTEGER | helper:INTEGER\n1 | 9"), 1);
        assertThat(projected.columns()).extracting(ColumnMeta::name).containsExactly("a");
        assertThat(drain(projected)).containsExactly(row(1L));
    }

    @Test
    void distinctDropsRowsEqualUnderTheCollation() {
        RowStream merged = new MergeSortStream(List.of(
                table("s:STRING | n:INTEGER\nNULL | 1\napple | 1\nBanana | 2"),
                table("s:STRING | n:INTEGER\nNULL | 1\nAPPLE | 1\nbanana | 2\nbanana | 3")), List.of(asc(0), asc(1)));
        assertThat(drain(new DistinctStream(merged)))
                .containsExactly(row(null, 1L), row("apple", 1L), row("Banana", 2L), row("banana", 3L));
    }

    @Test
    void filterKeepsMatchingRows() {
        RowStream filtered = new FilterStream(table("n:INTEGER\n1\n2\n3"), r -> ((Long) r.get(0).toJava()) % 2 == 1);
        assertThat(drain(filtered)).containsExactly(row(1L), row(3L));
    }

    @Test
    void memorySortSortsAndRefusesTooManyRows() {
        assertThat(drain(new MemorySortStream(table("n:INTEGER\n3\n1\n2"), List.of(desc(0)), 3)))
                .containsExactly(row(3L), row(2L), row(1L));
        RowStream tooMany = new MemorySortStream(table("n:INTEGER\n3\n1\n2"), List.of(asc(0)), 2);
        assertThatThrownBy(tooMany::next)
                .isInstanceOfSatisfying(ShardgateException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.BUFFER_LIMIT);
                    assertThat(e.errno()).isEqualTo(1038);
                })
                .hasMessage("Shardgate buffered more than 2 rows for an in-memory sort; narrow the query or raise the row limit");
    }

    @Test
    void scalarAggregatesMergeAndAverageHasFourMoreDecimals() {
        // Shards answer SELECT COUNT(*), SUM(x), MIN(x), MAX(x), AVG(x) rewritten to SUM(x) plus a COUNT(x) helper.
        RowStream merged = new AggregateStream(new ConcatStream(List.of(
                table("c:INTEGER | s:DECIMAL | mn:INTEGER | mx:INTEGER | avg:DECIMAL | n:INTEGER\n3 | 6.00 | 1 | 3 | 6.00 | 3"),
                table("c:INTEGER | s:DECIMAL | mn:INTEGER | mx:INTEGER | avg:DECIMAL | n:INTEGER\n2 | 9.50 | 4 | 5 | 9.50 | 2"),
                table("c:INTEGER | s:DECIMAL | mn:INTEGER | mx:INTEGER | avg:DECIMAL | n:INTEGER\n0 | NULL | NULL | NULL | NULL | 0"))),
                List.of(Aggregate.of(AggregateFunction.COUNT, ColumnRef.at(0)), Aggregate.of(AggregateFunction.SUM, ColumnRef.at(1)),
                        Aggregate.of(AggregateFunction.MIN, ColumnRef.at(2)), Aggregate.of(AggregateFunction.MAX, ColumnRef.at(3)),
                        Aggregate.avg(ColumnRef.at(4), ColumnRef.fromEnd(1))));
        assertThat(drain(merged)).containsExactly(row(5L, new BigDecimal("15.50"), 1L, 5L, new BigDecimal("3.100000"), 5L));
        assertThat(merged.columns().get(4).decimals()).isEqualTo(6);
    }

    @Test
    void scalarAggregatesOverNothingGiveCountZeroAndNulls() {
        RowStream merged = new AggregateStream(table("c:INTEGER | s:DECIMAL"),
                List.of(Aggregate.of(AggregateFunction.COUNT, ColumnRef.at(0)), Aggregate.of(AggregateFunction.SUM, ColumnRef.at(1))));
        assertThat(drain(merged)).containsExactly(row(0L, null));
    }

    @Test
    void sumsOverflowingALongBecomeDecimals() {
        assertThat(Accumulator.sum(SqlValue.of(Long.MAX_VALUE), SqlValue.of(1L)).toJava()).isEqualTo(new BigDecimal("9223372036854775808"));
        assertThat(Accumulator.sum(SqlValue.of(1.5d), SqlValue.of(1L)).toJava()).isEqualTo(2.5d);
    }

    @Test
    void groupByMergesEqualKeysOfSortedShards() {
        RowStream merged = new MergeSortStream(List.of(
                table("g:STRING | c:INTEGER\napple | 2\npear | 1"),
                table("g:STRING | c:INTEGER\nNULL | 4\nApple | 3\nplum | 1")), List.of(asc(0)));
        RowStream grouped = new GroupByStream(merged, List.of(asc(0)), List.of(Aggregate.of(AggregateFunction.COUNT, ColumnRef.at(1))));
        assertThat(drain(grouped)).containsExactly(row(null, 4L), row("apple", 5L), row("pear", 1L), row("plum", 1L));
    }

    @Test
    void groupByWithAverage() {
        RowStream merged = new MergeSortStream(List.of(
                table("g:INTEGER | a:DECIMAL | n:INTEGER\n1 | 10 | 4\n2 | 1 | 1"),
                table("g:INTEGER | a:DECIMAL | n:INTEGER\n1 | 5 | 1")), List.of(asc(0)));
        RowStream grouped = new GroupByStream(merged, List.of(asc(0)), List.of(Aggregate.avg(ColumnRef.at(1), ColumnRef.at(2))));
        assertThat(drain(grouped)).containsExactly(row(1L, new BigDecimal("3.0000"), 5L), row(2L, new BigDecimal("1.0000"), 1L));
    }

    private static List<Object> row(Object... values) {
        return java.util.Arrays.asList(values);
    }
}
