package io.shardgate.router.plan;

import io.shardgate.router.exec.DropColumnsStream;
import io.shardgate.router.exec.RowStream;

import java.util.List;

import static java.util.Objects.requireNonNull;

/** Drops the last {@code helperColumns} columns, which the planner added for sorting, grouping or AVG. */
public record Project(PlanNode input, int helperColumns) implements PlanNode {

    public Project {
        requireNonNull(input, "input is null");
        if (helperColumns < 1) {
            throw new IllegalArgumentException("helperColumns " + helperColumns + " must be positive");
        }
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public RowStream open(Execution execution) {
        return new DropColumnsStream(input.open(execution), helperColumns);
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
