package io.shardgate.router.plan;

import io.shardgate.router.value.SqlValue;
import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The SQL a route sends, with one {@link ValueSource} per {@code ?} in it, in order.
 *
 * @param text       the SQL
 * @param parameters what each {@code ?} of {@code text} is bound to
 */
public record ShardSql(String text, List<ValueSource> parameters) {

    public ShardSql {
        requireNonNull(text, "text is null");
        parameters = List.copyOf(requireNonNull(parameters, "parameters is null"));
    }

    /** The values for the {@code ?} of {@link #text()} at an execution with these parameters. */
    public List<SqlValue> bind(List<SqlValue> executionParameters) {
        List<SqlValue> values = new ArrayList<>(parameters.size());
        for (ValueSource source : parameters) {
            values.add(source.value(executionParameters));
        }
        return values;
    }

    /** How EXPLAIN shows the parameters: {@code [?0, ?2+?3]}, or nothing when there are none. */
    public String describeParameters() {
        return parameters.isEmpty() ? "" : " " + parameters.stream().map(ValueSource::describe).toList();
    }
}
