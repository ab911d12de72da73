package io.shardgate.router.plan;

import io.shardgate.router.exec.MemorySortStream;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.exec.SortKey;

import java.util.List;

import static java.util.Objects.requireNonNull;

/** ORDER BY the shards cannot do (on merged aggregates): sorts in memory, up to the execution's row limit. */
public record MemorySort(PlanNode input, List<SortKey> keys) implements PlanNode {

    public MemorySort {
        requireNonNull(input, "input is null");
        keys = List.copyOf(keys);
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public RowStream open(Execution execution) {
        return new MemorySortStream(input.open(execution), keys, execution.maxBufferedRows());
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
