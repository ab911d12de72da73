package io.shardgate.router.exec;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static io.shardgate.router.exec.FakeStream.drain;
import static io.shardgate.router.exec.FakeStream.table;
import static org.assertj.core.api.Assertions.assertThat;

/** GROUP_CONCAT merged from shards that grouped by its ORDER BY keys and arguments too. */
class ConcatAggregateTest {

    private static SortKey asc(int column) {
        return new SortKey(ColumnRef.at(column), false);
    }

    private static Aggregate concat(int column, List<Integer> arguments, int maxLength, String separator, boolean distinct) {
        return Aggregate.concat(ColumnRef.at(column), new Aggregate.Concat(arguments.stream().map(ColumnRef::at).toList(),
                ColumnRef.at(maxLength), separator, distinct));
    }

    @Test
    void partsJoinInOrderWithTheSeparatorSkippingNulls() {
        // g | GROUP_CONCAT(x) of the shard's (g, x) subgroup | COUNT(*) | x | @@group_concat_max_len
        RowStream merged = new MergeSortStream(List.of(
                table("""
                        g:INTEGER | c:STRING | n:INTEGER | x:STRING | m:INTEGER
                        1 | NULL | 1 | NULL | 1024
                        1 | a;a | 2 | a | 1024
                        1 | c | 1 | c | 1024
                        2 | z | 1 | z | 1024
                        """),
                table("""
                        g:INTEGER | c:STRING | n:INTEGER | x:STRING | m:INTEGER
                        1 | a | 1 | a | 1024
                        1 | b | 1 | b | 1024
                        """)), List.of(asc(0), asc(3)));
        RowStream grouped = new GroupByStream(merged, List.of(asc(0)), List.of(concat(1, List.of(3), 4, ";", false),
                Aggregate.of(AggregateFunction.COUNT, ColumnRef.at(2))));
        List<List<Object>> rows = drain(grouped);
        assertThat(rows.get(0).subList(0, 3)).isEqualTo(Arrays.asList(1L, "a;a;a;b;c", 6L));
        assertThat(rows.get(1).subList(0, 3)).isEqualTo(Arrays.asList(2L, "z", 1L));
    }

    @Test
    void distinctSkipsAValueTheOtherShardAlsoHadUnderTheCollation() {
        RowStream merged = new MergeSortStream(List.of(
                table("c:STRING | x:STRING | m:INTEGER\na | a | 1024\nb | b | 1024"),
                table("c:STRING | x:STRING | m:INTEGER\nA | A | 1024\nc | c | 1024")), List.of(asc(1)));
        RowStream all = new AggregateStream(merged, List.of(concat(0, List.of(1), 2, ",", true)));
        assertThat(drain(all).get(0).get(0)).isEqualTo("a,b,c");
    }

    @Test
    void theResultIsCutToTheMaximumLengthInBytesWithoutSplittingACharacter() {
        RowStream merged = new MergeSortStream(List.of(
                table("c:STRING | x:STRING | m:INTEGER\nab | ab | 6\né | é | 6"),
                table("c:STRING | x:STRING | m:INTEGER\ncd | cd | 6")), List.of(asc(1)));
        RowStream all = new AggregateStream(merged, List.of(concat(0, List.of(1), 2, ",", false)));
        // "ab,cd,é" is 8 bytes in UTF-8: 6 bytes keep "ab,cd,", and half of é is not kept.
        assertThat(drain(all).get(0).get(0)).isEqualTo("ab,cd,");
    }

    @Test
    void noRowsOrOnlyNullsGiveNull() {
        RowStream empty = new MergeSortStream(List.of(table("c:STRING | x:STRING | m:INTEGER")), List.of(asc(1)));
        assertThat(drain(new AggregateStream(empty, List.of(concat(0, List.of(1), 2, ",", false)))).get(0).get(0)).isNull();
        RowStream nulls = new MergeSortStream(List.of(table("c:STRING | x:STRING | m:INTEGER\nNULL | NULL | 1024")), List.of(asc(1)));
        assertThat(drain(new AggregateStream(nulls, List.of(concat(0, List.of(1), 2, ",", false)))).get(0).get(0)).isNull();
    }
}
