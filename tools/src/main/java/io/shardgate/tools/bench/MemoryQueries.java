package io.shardgate.tools.bench;

import io.shardgate.errors.ErrorCode;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code bench memory} loads and asks. Table {@code t (id, v)} holds ids 1..N with {@code v = 3 * id}, sharded by
 * {@code id}; table {@code t2 (id, w)} holds ids 1..N with {@code w = 2 * id}, sharded by {@code w}, so that a join
 * of {@code t.v} with {@code t2.w} is not co-located. Every value of {@code v} is distinct, so each query below reads
 * N rows from the shards, and those that must hold them (one per group, or the values of a subquery) hold N. The
 * answers are known from N: {@code v = w} for the multiples of 6 up to 2N, N / 3 of them.
 */
final class MemoryQueries {
    static final String SCHEMA = "memdb";

    private MemoryQueries() {
    }

    /**
     * How a query must answer once it reads more rows than the limit. {@code BUFFERS}: its merge holds every row (or
     * group, or value), so only the documented ERR is right. {@code STREAMS}: its merge needs one row at a time, so
     * the right answer is right too. A join across shards (docs/sharding.md, Copies) buffers its copy when it
     * merges (here a COUNT(*)) and streams it in batches when it does not.
     */
    enum Kind { BUFFERS, STREAMS }

    /**
     * How the answer is read and summarised for comparison: one number that must be N ({@code COUNT_ALL}) or N / 3
     * ({@code COUNT_THIRD}), a row count, a row count of ascending values, or a text's length.
     */
    enum Answer { COUNT_ALL, COUNT_THIRD, ROWS, ASCENDING_ROWS, TEXT_LENGTH }

    record Query(String sql, Kind kind, Answer answer) {
        /** The summary the right answer gives, over N rows, with the session's {@code group_concat_max_len}. */
        String expected(long rows, long groupConcatMaxLen) {
            return switch (answer) {
                case COUNT_ALL -> Long.toString(rows);
                case COUNT_THIRD -> Long.toString(rows / 3);
                case ROWS -> rows + " rows";
                case ASCENDING_ROWS -> rows + " rows, ascending";
                case TEXT_LENGTH -> Math.min(groupConcatLength(rows), groupConcatMaxLen) + " chars";
            };
        }
    }

    static final List<Query> QUERIES = List.of(
            new Query("SELECT COUNT(DISTINCT v) FROM t", Kind.STREAMS, Answer.COUNT_ALL),
            new Query("SELECT DISTINCT v FROM t", Kind.STREAMS, Answer.ROWS),
            new Query("SELECT v FROM t ORDER BY v", Kind.STREAMS, Answer.ASCENDING_ROWS),
            new Query("SELECT v, COUNT(*) AS n FROM t GROUP BY v ORDER BY n DESC, v", Kind.BUFFERS, Answer.ASCENDING_ROWS),
            new Query("SELECT GROUP_CONCAT(v) FROM t", Kind.STREAMS, Answer.TEXT_LENGTH),
            new Query("SELECT COUNT(*) FROM t WHERE v IN (SELECT w FROM t2)", Kind.BUFFERS, Answer.COUNT_THIRD),
            new Query("SELECT COUNT(*) FROM t a JOIN t2 b ON a.v = b.w", Kind.BUFFERS, Answer.COUNT_THIRD),
            new Query("SELECT a.id FROM t a JOIN t2 b ON b.id = a.id", Kind.STREAMS, Answer.ROWS));

    /** The length of {@code GROUP_CONCAT(v)} uncut: the decimal digits of 3, 6, ..., 3N and N - 1 commas. */
    static long groupConcatLength(long rows) {
        long length = Math.max(0, rows - 1);
        for (long id = 1; id <= rows; id++) {
            length += Long.toString(3 * id).length();
        }
        return length;
    }

    /** What the client got: an ERR (errno, SQLSTATE, message) or an answer's summary; errno 0 is no MySQL error. */
    record Outcome(boolean error, int errno, String sqlState, String text) {
        static Outcome answer(String summary) {
            return new Outcome(false, 0, "", summary);
        }

        static Outcome failed(SQLException e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            // MariaDB Connector/J puts "(conn=N) " before the server's message.
            if (message.startsWith("(conn=")) {
                message = message.substring(message.indexOf(") ") + 2);
            }
            return new Outcome(true, e.getErrorCode(), e.getSQLState() == null ? "" : e.getSQLState(), message);
        }

        /** The documented answer to a merge over the limit: ErrorCode.BUFFER_LIMIT with the limit in its message. */
        boolean isBufferLimit(long limit) {
            return error && errno == ErrorCode.BUFFER_LIMIT.errno() && sqlState.equals(ErrorCode.BUFFER_LIMIT.sqlState())
                    && text.startsWith("Shardgate buffered more than " + limit + " rows for ");
        }

        @Override
        public String toString() {
            return error ? "ERR " + errno + " (" + sqlState + "): " + text : text;
        }
    }

    /**
     * Null when {@code outcome} is a right one for {@code query}, else why not. Over the limit ({@code rows > limit}) a
     * BUFFERS query must get the documented ERR, a STREAMS query that ERR or the right answer; under it every query
     * must answer right.
     */
    static String verdict(Query query, Outcome outcome, long limit, long rows, String expected) {
        boolean over = rows > limit;
        if (over && outcome.isBufferLimit(limit)) {
            return null;
        }
        if (over && query.kind() == Kind.BUFFERS) {
            return "expected ERR " + ErrorCode.BUFFER_LIMIT.errno() + " (" + ErrorCode.BUFFER_LIMIT.sqlState()
                    + "): Shardgate buffered more than " + limit + " rows for ...";
        }
        if (outcome.error() || !outcome.text().equals(expected)) {
            return "expected the answer " + expected + (over ? " or ERR " + ErrorCode.BUFFER_LIMIT.errno() : "");
        }
        return null;
    }

    /** Runs {@code query} and reads its whole answer; a MySQL error is an outcome, a lost connection too (errno 0). */
    static Outcome run(Statement statement, Query query) {
        try (ResultSet rows = statement.executeQuery(query.sql())) {
            return Outcome.answer(summary(rows, query.answer()));
        } catch (SQLException e) {
            return Outcome.failed(e);
        }
    }

    private static String summary(ResultSet rows, Answer answer) throws SQLException {
        switch (answer) {
            case COUNT_ALL, COUNT_THIRD -> {
                return rows.next() ? String.valueOf(rows.getString(1)) : "no row";
            }
            case TEXT_LENGTH -> {
                if (!rows.next()) {
                    return "no row";
                }
                String text = rows.getString(1);
                return text == null ? "NULL" : text.length() + " chars";
            }
            default -> {
                long count = 0;
                long previous = Long.MIN_VALUE;
                long unordered = -1;
                while (rows.next()) {
                    count++;
                    long value = rows.getLong(1);
                    if (value < previous && unordered < 0) {
                        unordered = count;
                    }
                    previous = value;
                }
                if (answer == Answer.ROWS) {
                    return count + " rows";
                }
                return count + " rows, " + (unordered < 0 ? "ascending" : "not ascending at row " + unordered);
            }
        }
    }

    /** The INSERTs that load {@code t} and {@code t2} with {@code rows} rows each, {@code perInsert} rows per statement. */
    static List<String> inserts(long rows, int perInsert) {
        List<String> inserts = new ArrayList<>();
        for (String table : List.of("t", "t2")) {
            long factor = table.equals("t") ? 3 : 2;
            for (long first = 1; first <= rows; first += perInsert) {
                StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(table.equals("t") ? " (id, v)" : " (id, w)")
                        .append(" VALUES ");
                for (long id = first; id < first + perInsert && id <= rows; id++) {
                    sql.append(id == first ? "" : ",").append('(').append(id).append(',').append(factor * id).append(')');
                }
                inserts.add(sql.toString());
            }
        }
        return inserts;
    }

    /** The tables, on a shard whose engine is {@code engine} (the name ENGINE= takes). */
    static List<String> createTables(String engine) {
        return List.of("CREATE DATABASE " + SCHEMA,
                // KEY (v): the join on a.v = b.w looks t up by v for each copied t2 row; without an index on either side, one
                // server and a shard alike join 300,000 rows to 300,000 by block nested loop (minutes).
                "CREATE TABLE " + SCHEMA + ".t (id BIGINT PRIMARY KEY, v INT NOT NULL, KEY (v)) ENGINE=" + engine,
                "CREATE TABLE " + SCHEMA + ".t2 (id BIGINT PRIMARY KEY, w INT NOT NULL) ENGINE=" + engine);
    }
}
