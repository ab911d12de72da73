package io.shardgate.router.plan;

import io.shardgate.errors.ErrorCode;
import io.shardgate.router.exec.Row;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.value.SqlValue;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * {@code x [NOT] IN (SELECT ...)} whose subquery reads other shards than the rest of the statement: the
 * subquery runs first, on its own ({@code subquery}); its distinct values (at most
 * {@code limits.max_buffered_rows}, else {@link ErrorCode#BUFFER_LIMIT}) replace it as a list of bound
 * parameters, {@code x IN (?, ?, ...)}, and the statement is planned again with them ({@code outer}), so a
 * list on a shard key routes to the shards owning the values. An empty result becomes a subquery without
 * rows, so {@code NOT IN} stays true and {@code IN} false, as in MariaDB. A subquery that refers to the outer
 * statement fails on its shard (an unknown column): only an uncorrelated one can run this way.
 *
 * @param subquery          the subquery's plan, its parameters numbered from 0
 * @param before            the statement's text before the subquery's parentheses
 * @param after             the text after them
 * @param parametersBefore  the statement's {@code ?} in {@code before}
 * @param parametersInside  the statement's {@code ?} in the subquery
 * @param outer             plans the statement with the list in place (the session's current schema applies)
 */
public record SubqueryFirst(PlanNode subquery, String before, String after, int parametersBefore, int parametersInside,
                            Function<String, PlanNode> outer) implements PlanNode {

    /** The text in place of a subquery that returned no rows. */
    public static final String NO_ROWS = "(SELECT NULL FROM DUAL WHERE 0)";

    public SubqueryFirst {
        requireNonNull(subquery, "subquery is null");
        requireNonNull(before, "before is null");
        requireNonNull(after, "after is null");
        requireNonNull(outer, "outer is null");
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(subquery);
    }

    @Override
    public RowStream open(Execution execution) {
        List<SqlValue> parameters = execution.parameters();
        List<SqlValue> inner = parameters.subList(parametersBefore, parametersBefore + parametersInside);
        Set<SqlValue> values = new LinkedHashSet<>();
        try (RowStream rows = subquery.open(new Execution(execution.cursor(), inner, execution.sequences(), execution.maxBufferedRows()))) {
            for (Row row = rows.next(); row != null; row = rows.next()) {
                if (values.add(row.get(0)) && values.size() > execution.maxBufferedRows()) {
                    throw ErrorCode.BUFFER_LIMIT.exception(execution.maxBufferedRows(), "the values of an IN subquery");
                }
            }
        }
        StringBuilder sql = new StringBuilder(before);
        if (values.isEmpty()) {
            sql.append(NO_ROWS);
        }
        else {
            sql.append('(').append("?, ".repeat(values.size() - 1)).append("?)");
        }
        sql.append(after);
        List<SqlValue> bound = new ArrayList<>(parameters.subList(0, parametersBefore));
        bound.addAll(values);
        bound.addAll(parameters.subList(parametersBefore + parametersInside, parameters.size()));
        PlanNode planned = outer.apply(sql.toString());
        return planned.open(new Execution(execution.cursor(), bound, execution.sequences(), execution.maxBufferedRows()));
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
