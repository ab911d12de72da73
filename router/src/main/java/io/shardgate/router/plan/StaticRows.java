package io.shardgate.router.plan;

import io.shardgate.router.exec.ColumnMeta;
import io.shardgate.router.exec.Row;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.exec.Streams;
import io.shardgate.router.exec.ValueKind;

import java.util.List;

/** Rows Shardgate answers itself, without a shard: the output of EXPLAIN SHARDGATE. One string column. */
public record StaticRows(String column, List<String> lines) implements PlanNode {

    public StaticRows {
        java.util.Objects.requireNonNull(column, "column is null");
        lines = List.copyOf(lines);
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of();
    }

    @Override
    public RowStream open(Execution execution) {
        return Streams.of(List.of(ColumnMeta.of(column, ValueKind.STRING)), lines.stream().map(line -> Row.of(line)).toList());
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
