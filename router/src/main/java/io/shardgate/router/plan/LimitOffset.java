package io.shardgate.router.plan;

import io.shardgate.router.exec.LimitStream;
import io.shardgate.router.exec.RowStream;

import java.util.List;

import static java.util.Objects.requireNonNull;

/** LIMIT count OFFSET offset over the merged rows (each shard was sent LIMIT offset+count, or no LIMIT). */
public record LimitOffset(PlanNode input, ValueSource offset, ValueSource count) implements PlanNode {

    public LimitOffset {
        requireNonNull(input, "input is null");
        requireNonNull(offset, "offset is null");
        requireNonNull(count, "count is null");
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public RowStream open(Execution execution) {
        long skip = ValueSource.integer(offset.value(execution.parameters())).longValueExact();
        long take = ValueSource.integer(count.value(execution.parameters())).min(java.math.BigInteger.valueOf(Long.MAX_VALUE)).longValue();
        return new LimitStream(input.open(execution), skip, take);
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
