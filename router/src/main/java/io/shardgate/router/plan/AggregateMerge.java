package io.shardgate.router.plan;

import io.shardgate.router.exec.Aggregate;
import io.shardgate.router.exec.AggregateStream;
import io.shardgate.router.exec.RowStream;

import java.util.List;

import static java.util.Objects.requireNonNull;

/** Aggregates without GROUP BY: the shards' single rows merged into one (AVG from SUM and COUNT). */
public record AggregateMerge(PlanNode input, List<Aggregate> aggregates) implements PlanNode {

    public AggregateMerge {
        requireNonNull(input, "input is null");
        aggregates = List.copyOf(aggregates);
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public RowStream open(Execution execution) {
        return new AggregateStream(input.open(execution), aggregates);
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
