package io.shardgate.proxy.frontend;

import io.shardgate.proxy.protocol.LocalResultSet;
import io.shardgate.proxy.sharding.ShardWarning;
import io.shardgate.proxy.sharding.ShardWarnings;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** SHOW WARNINGS and its relatives after a statement that ran on several shards answer as one server would. */
class WarningsStatementTest {
    /** Two shards warned; s1 counted 3 warnings but max_error_count kept only what is listed. */
    private static final ShardWarnings LAST = new ShardWarnings(List.of(
            new ShardWarning("s0", "Warning", 1292, "Truncated incorrect INTEGER value: 'x1'"),
            new ShardWarning("s1", "Warning", 1292, "Truncated incorrect INTEGER value: 'x2'"),
            new ShardWarning("s1", "Error", 1366, "Incorrect integer value"),
            new ShardWarning("s1", "Note", 1051, "Unknown table")), 5);

    private static List<List<String>> rows(String sql) {
        LocalResultSet answer = WarningsStatement.parse(sql).orElseThrow(() -> new AssertionError("not read: " + sql)).answer(LAST);
        return answer.rows();
    }

    @Test
    void showWarningsListsEveryShardsRowsPrefixedWithItsShard() {
        LocalResultSet all = WarningsStatement.parse("show warnings;").orElseThrow().answer(LAST);
        assertThat(all.columns()).containsExactly("Level", "Code", "Message");
        assertThat(all.rows()).extracting(row -> row.get(2)).containsExactly("shard s0: Truncated incorrect INTEGER value: 'x1'",
                "shard s1: Truncated incorrect INTEGER value: 'x2'", "shard s1: Incorrect integer value", "shard s1: Unknown table");
        assertThat(rows("SHOW WARNINGS LIMIT 1")).extracting(row -> row.get(1)).containsExactly("1292");
        assertThat(rows("SHOW WARNINGS LIMIT 1, 2")).extracting(row -> row.get(0)).containsExactly("Warning", "Error");
        assertThat(rows("SHOW WARNINGS LIMIT 10, 2")).isEmpty();
        assertThat(rows("SHOW WARNINGS LIMIT 0")).isEmpty();
    }

    @Test
    void showErrorsListsOnlyErrors() {
        assertThat(rows("SHOW ERRORS")).containsExactly(List.of("Error", "1366", "shard s1: Incorrect integer value"));
        assertThat(rows("SHOW ERRORS LIMIT 0, 0")).isEmpty();
    }

    @Test
    void theCountsAreTheShardsCountsUnderMariaDbsColumnNames() {
        LocalResultSet count = WarningsStatement.parse("SHOW COUNT(*) WARNINGS").orElseThrow().answer(LAST);
        assertThat(count.columns()).containsExactly("@@session.warning_count");
        assertThat(count.rows()).containsExactly(List.of("5"));
        LocalResultSet errors = WarningsStatement.parse("show count ( * ) errors").orElseThrow().answer(LAST);
        assertThat(errors.columns()).containsExactly("@@session.error_count");
        assertThat(errors.rows()).containsExactly(List.of("1"));
        LocalResultSet variable = WarningsStatement.parse("SELECT @@warning_count").orElseThrow().answer(LAST);
        assertThat(variable.columns()).as("named as written").containsExactly("@@warning_count");
        assertThat(variable.rows()).containsExactly(List.of("5"));
        assertThat(WarningsStatement.parse("SELECT @@SESSION.error_count;").orElseThrow().answer(LAST).columns())
                .containsExactly("@@SESSION.error_count");
    }

    @Test
    void otherStatementsAreNotRead() {
        for (String sql : new String[] {"SELECT @@warning_count, 1", "SELECT @@global.warning_count", "SHOW WARNINGS LIMIT -1",
                "SHOW WARNINGS LIMIT 1 OFFSET 2", "SHOW COUNT(*) VARIABLES", "SHOW VARIABLES", "SELECT 'SHOW WARNINGS'",
                "SHOW WARNINGS; SELECT 1", "GET DIAGNOSTICS @n = NUMBER", "SELECT @@warning_count FROM t"}) {
            assertThat(WarningsStatement.parse(sql)).as(sql).isEmpty();
        }
    }

    @Test
    void maxErrorCountIsTheSessionsOrMariaDbsDefault() {
        assertThat(ShardWarnings.maxErrorCount(null)).isEqualTo(64);
        assertThat(ShardWarnings.maxErrorCount("3")).isEqualTo(3);
        assertThat(ShardWarnings.maxErrorCount("x")).isEqualTo(64);
        assertThat(new ShardWarnings(List.of(), 0).isEmpty()).isTrue();
        assertThat(LAST.errors()).hasSize(1);
    }
}
