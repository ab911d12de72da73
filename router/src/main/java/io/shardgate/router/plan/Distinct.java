package io.shardgate.router.plan;

import io.shardgate.router.exec.DistinctStream;
import io.shardgate.router.exec.RowStream;

import java.util.List;

import static java.util.Objects.requireNonNull;

/** DISTINCT across shards, over an input sorted on every column. */
public record Distinct(PlanNode input) implements PlanNode {

    public Distinct {
        requireNonNull(input, "input is null");
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public RowStream open(Execution execution) {
        return new DistinctStream(input.open(execution));
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
