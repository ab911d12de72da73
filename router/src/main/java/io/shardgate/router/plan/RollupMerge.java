package io.shardgate.router.plan;

import io.shardgate.router.exec.Aggregate;
import io.shardgate.router.exec.RollupStream;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.exec.SortKey;

import java.util.List;

import static java.util.Objects.requireNonNull;

/** GROUP BY ... WITH ROLLUP across shards: the shards' groups, sorted by the group keys, merged with the super-aggregate rows. */
public record RollupMerge(PlanNode input, List<SortKey> groupKeys, List<Aggregate> aggregates) implements PlanNode {

    public RollupMerge {
        requireNonNull(input, "input is null");
        groupKeys = List.copyOf(groupKeys);
        aggregates = List.copyOf(aggregates);
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public RowStream open(Execution execution) {
        return new RollupStream(input.open(execution), groupKeys, aggregates);
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
