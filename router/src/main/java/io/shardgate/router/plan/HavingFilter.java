package io.shardgate.router.plan;

import io.shardgate.router.exec.FilterStream;
import io.shardgate.router.exec.RowStream;

import java.util.List;

import static java.util.Objects.requireNonNull;

/** HAVING, evaluated on the merged groups (the shards only see partial groups). */
public record HavingFilter(PlanNode input, RowExpression condition) implements PlanNode {

    public HavingFilter {
        requireNonNull(input, "input is null");
        requireNonNull(condition, "condition is null");
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public RowStream open(Execution execution) {
        RowStream rows = input.open(execution);
        RowExpression.Context context = new RowExpression.Context(rows.columns(), execution.parameters());
        return new FilterStream(rows, row -> RowExpression.isTrue(condition.evaluate(row, context)));
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
