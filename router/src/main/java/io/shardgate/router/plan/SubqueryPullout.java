package io.shardgate.router.plan;

import io.shardgate.errors.ErrorCode;
import io.shardgate.router.exec.Row;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.value.SqlValue;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A statement whose subqueries do not reference it (uncorrelated) and whose tables live on other
 * shards than its own: each subquery runs first, on its own plan, and its result goes into the
 * statement's text in the subquery's place, which is then planned and run as any statement is.
 * {@code x IN (SELECT …)} becomes {@code x IN (?, ?, …)} bound to the subquery's values (an
 * empty result becomes an empty subquery, so {@code NOT IN} stays true); a scalar comparison's
 * subquery becomes {@code (?)} (NULL for no row, error 1242 for more than one); {@code EXISTS (…)}
 * becomes {@code TRUE} or {@code FALSE}. The values travel as parameters, which proxy-core writes
 * as literals of the very bytes the shard returned.
 *
 * @param pieces     the statement's text around the subqueries: {@code pieces.size() == subqueries.size() + 1}
 * @param subqueries the subqueries, in text order
 * @param planner    plans the rewritten statement at each execution
 */
public record SubqueryPullout(List<ShardSql> pieces, List<Subquery> subqueries, Replanner planner) implements PlanNode {

    /** How a subquery's result enters the statement. */
    public enum Use {
        /** {@code x [NOT] IN (subquery)}: a list of values. */
        IN,
        /** {@code x = (subquery)} and the other comparisons: one value or NULL. */
        SCALAR,
        /** {@code [NOT] EXISTS (subquery)}: TRUE or FALSE (the piece before it ends before EXISTS). */
        EXISTS
    }

    /**
     * One subquery: its own plan, and which of the statement's parameters it binds.
     *
     * @param plan       the subquery's plan
     * @param parameters for each {@code ?} of the subquery, the statement's parameter it is
     * @param use        how its result enters the statement
     * @param text       the subquery as written, for EXPLAIN
     */
    public record Subquery(PlanNode plan, List<ValueSource> parameters, Use use, String text) {
        public Subquery {
            requireNonNull(plan, "plan is null");
            parameters = List.copyOf(parameters);
            requireNonNull(use, "use is null");
            requireNonNull(text, "text is null");
        }
    }

    /** Plans the statement once its subqueries are replaced: the planner, bound to the session's schema. */
    @FunctionalInterface
    public interface Replanner {
        Plan plan(String sql);
    }

    /** What an empty IN result becomes: a subquery with no row, so that NOT IN stays true. Never pulled out itself. */
    public static final String NO_ROWS = "SELECT NULL FROM DUAL WHERE FALSE";

    public SubqueryPullout {
        pieces = List.copyOf(pieces);
        subqueries = List.copyOf(subqueries);
        requireNonNull(planner, "planner is null");
        if (pieces.size() != subqueries.size() + 1) {
            throw new IllegalArgumentException(pieces.size() + " pieces around " + subqueries.size() + " subqueries");
        }
    }

    @Override
    public List<PlanNode> inputs() {
        return subqueries.stream().map(Subquery::plan).toList();
    }

    @Override
    public RowStream open(Execution execution) {
        StringBuilder sql = new StringBuilder(pieces.get(0).text());
        List<SqlValue> parameters = new ArrayList<>(pieces.get(0).bind(execution.parameters()));
        for (int i = 0; i < subqueries.size(); i++) {
            Subquery subquery = subqueries.get(i);
            List<SqlValue> values = run(subquery, execution);
            switch (subquery.use()) {
                case IN -> {
                    if (values.isEmpty()) {
                        sql.append('(').append(NO_ROWS).append(')');
                    } else {
                        sql.append('(').append("?, ".repeat(values.size() - 1)).append("?)");
                        parameters.addAll(values);
                    }
                }
                case SCALAR -> {
                    sql.append("(?)");
                    parameters.add(values.isEmpty() ? SqlValue.NULL : values.get(0));
                }
                case EXISTS -> sql.append(values.isEmpty() ? "FALSE" : "TRUE");
            }
            ShardSql after = pieces.get(i + 1);
            sql.append(after.text());
            parameters.addAll(after.bind(execution.parameters()));
        }
        Plan rewritten = planner.plan(sql.toString());
        return rewritten.open(new Execution(execution.cursor(), parameters, execution.sequences(), execution.maxBufferedRows()));
    }

    /** The subquery's first column, each row's value; at most one row for a scalar use, one row for EXISTS. */
    private static List<SqlValue> run(Subquery subquery, Execution execution) {
        List<SqlValue> bound = new ArrayList<>(subquery.parameters().size());
        for (ValueSource source : subquery.parameters()) {
            bound.add(source.value(execution.parameters()));
        }
        Execution own = new Execution(execution.cursor().forSubquery(), bound, execution.sequences(), execution.maxBufferedRows());
        List<SqlValue> values = new ArrayList<>();
        try (RowStream rows = subquery.plan().open(own)) {
            if (subquery.use() != Use.EXISTS && rows.columns().size() != 1) {
                throw ErrorCode.OPERAND_COLUMNS.exception(1);
            }
            for (Row row = rows.next(); row != null; row = rows.next()) {
                if (subquery.use() == Use.EXISTS) {
                    values.add(SqlValue.NULL);
                    break;
                }
                if (subquery.use() == Use.SCALAR && !values.isEmpty()) {
                    throw ErrorCode.SCALAR_SUBQUERY_ROWS.exception();
                }
                if (values.size() >= execution.maxBufferedRows()) {
                    throw ErrorCode.BUFFER_LIMIT.exception(execution.maxBufferedRows(), "the values of a subquery on other shards");
                }
                values.add(row.get(0));
            }
        }
        return values;
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
