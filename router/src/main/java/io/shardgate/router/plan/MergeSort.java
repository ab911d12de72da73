package io.shardgate.router.plan;

import io.shardgate.router.exec.MergeSortStream;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.exec.SortKey;

import java.util.List;

import static java.util.Objects.requireNonNull;

/** ORDER BY across shards: a k-way merge of the route's per-shard streams, each sorted by {@code keys}. */
public record MergeSort(Route input, List<SortKey> keys) implements PlanNode {

    public MergeSort {
        requireNonNull(input, "input is null");
        keys = List.copyOf(keys);
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("no keys");
        }
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public RowStream open(Execution execution) {
        return new MergeSortStream(input.openEach(execution), keys);
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
