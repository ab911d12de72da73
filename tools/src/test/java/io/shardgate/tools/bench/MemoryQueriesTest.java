package io.shardgate.tools.bench;

import io.shardgate.errors.ErrorCode;
import io.shardgate.tools.bench.MemoryQueries.Kind;
import io.shardgate.tools.bench.MemoryQueries.Outcome;
import io.shardgate.tools.bench.MemoryQueries.Query;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MemoryQueriesTest {
    private static final Query SORT = query("GROUP BY v ORDER BY n");
    private static final Query DISTINCT = query("SELECT DISTINCT v");
    private static final Query JOIN = query("COUNT(*) FROM t a JOIN");
    private static final Outcome LIMIT_ERR = Outcome.failed(new SQLException(
            "(conn=12) " + ErrorCode.BUFFER_LIMIT.message(100, "an in-memory sort"), "HY001", 1038));

    private static Query query(String part) {
        return MemoryQueries.QUERIES.stream().filter(q -> q.sql().contains(part)).findFirst().orElseThrow();
    }

    @Test
    void theDriversConnectionPrefixIsNotPartOfTheMessage() {
        assertThat(LIMIT_ERR.text()).isEqualTo("Shardgate buffered more than 100 rows for an in-memory sort; narrow the query or raise the row limit");
        assertThat(LIMIT_ERR).hasToString("ERR 1038 (HY001): " + LIMIT_ERR.text());
        assertThat(LIMIT_ERR.isBufferLimit(100)).isTrue();
        assertThat(LIMIT_ERR.isBufferLimit(99)).as("another limit in the message").isFalse();
    }

    @Test
    void overTheLimitABufferingQueryMustGetTheDocumentedErr() {
        assertThat(SORT.kind()).isEqualTo(Kind.BUFFERS);
        assertThat(MemoryQueries.verdict(SORT, LIMIT_ERR, 100, 300, "300 rows, ascending")).isNull();
        assertThat(MemoryQueries.verdict(SORT, Outcome.answer("300 rows, ascending"), 100, 300, "300 rows, ascending"))
                .startsWith("expected ERR 1038 (HY001)");
        Outcome otherErr = Outcome.failed(new SQLException("Out of memory", "HY001", 1037));
        assertThat(MemoryQueries.verdict(SORT, otherErr, 100, 300, "300 rows, ascending")).isNotNull();
    }

    @Test
    void overTheLimitAStreamingQueryMayAnswerRightOrGetTheErr() {
        assertThat(DISTINCT.kind()).isEqualTo(Kind.STREAMS);
        assertThat(MemoryQueries.verdict(DISTINCT, Outcome.answer("300 rows"), 100, 300, "300 rows")).isNull();
        assertThat(MemoryQueries.verdict(DISTINCT, LIMIT_ERR, 100, 300, "300 rows")).isNull();
        assertThat(MemoryQueries.verdict(DISTINCT, Outcome.answer("299 rows"), 100, 300, "300 rows"))
                .isEqualTo("expected the answer 300 rows or ERR 1038");
    }

    @Test
    void underTheLimitEveryQueryMustAnswerRight() {
        assertThat(MemoryQueries.verdict(SORT, Outcome.answer("300 rows, ascending"), 600, 300, "300 rows, ascending")).isNull();
        assertThat(MemoryQueries.verdict(SORT, Outcome.failed(new SQLException(ErrorCode.BUFFER_LIMIT.message(600, "x"), "HY001", 1038)),
                600, 300, "300 rows, ascending")).isEqualTo("expected the answer 300 rows, ascending");
    }

    @Test
    void aJoinThatMergesBuffersItsCopyAndAPlainOneStreams() {
        assertThat(JOIN.kind()).as("COUNT(*) over a join across shards: its copy is read whole first").isEqualTo(Kind.BUFFERS);
        Outcome refused = Outcome.failed(new SQLException("This version of Shardgate doesn't yet support 'a join'", "42000", 1235));
        assertThat(MemoryQueries.verdict(JOIN, refused, 100, 300, "100")).as("1235 is no longer an answer").isNotNull();
        assertThat(MemoryQueries.verdict(JOIN, LIMIT_ERR, 100, 300, "100")).isNull();
        assertThat(MemoryQueries.verdict(JOIN, Outcome.answer("100"), 100, 300, "100")).isNotNull();
        assertThat(MemoryQueries.verdict(JOIN, Outcome.answer("100"), 600, 300, "100")).isNull();
        Query streamed = query("b ON b.id = a.id");
        assertThat(streamed.kind()).as("a plain join streams its copy in batches").isEqualTo(Kind.STREAMS);
        assertThat(MemoryQueries.verdict(streamed, Outcome.answer("300 rows"), 100, 300, "300 rows")).isNull();
        assertThat(MemoryQueries.verdict(streamed, Outcome.failed(new SQLException("Connection reset", "08000", 0)), 100, 300,
                "300 rows")).isNotNull();
    }

    @Test
    void expectedAnswersFollowTheData() {
        assertThat(query("COUNT(DISTINCT v)").expected(300, 1024)).isEqualTo("300");
        assertThat(JOIN.expected(300, 1024)).as("v = 3 id meets w = 2 id at the multiples of 6 up to 600").isEqualTo("100");
        assertThat(query("v IN (SELECT").expected(301, 1024)).isEqualTo("100");
        assertThat(query("ORDER BY v").expected(5, 1024)).isEqualTo("5 rows, ascending");
        // 3,6,9,12,15: 1 + 1 + 1 + 2 + 2 digits and 4 commas; cut at group_concat_max_len.
        assertThat(MemoryQueries.groupConcatLength(5)).isEqualTo(11);
        assertThat(query("GROUP_CONCAT").expected(5, 1024)).isEqualTo("11 chars");
        assertThat(query("GROUP_CONCAT").expected(5, 8)).isEqualTo("8 chars");
    }

    @Test
    void insertsLoadBothTablesInBatches() {
        List<String> inserts = MemoryQueries.inserts(5, 2);
        assertThat(inserts).containsExactly(
                "INSERT INTO t (id, v) VALUES (1,3),(2,6)", "INSERT INTO t (id, v) VALUES (3,9),(4,12)", "INSERT INTO t (id, v) VALUES (5,15)",
                "INSERT INTO t2 (id, w) VALUES (1,2),(2,4)", "INSERT INTO t2 (id, w) VALUES (3,6),(4,8)", "INSERT INTO t2 (id, w) VALUES (5,10)");
    }
}
