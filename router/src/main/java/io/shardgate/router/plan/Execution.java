package io.shardgate.router.plan;

import io.shardgate.router.value.SqlValue;
import io.shardgate.router.exec.ShardCursor;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * What one execution of a plan needs: the way to the shards, the parameters bound to the prepared
 * statement (empty for a text query), the global sequences, and how many rows an operator that must
 * buffer may hold (config {@code limits.max_buffered_rows}).
 */
public record Execution(ShardCursor cursor, List<SqlValue> parameters, SequenceSource sequences, long maxBufferedRows) {

    public Execution {
        requireNonNull(cursor, "cursor is null");
        parameters = List.copyOf(requireNonNull(parameters, "parameters is null"));
        requireNonNull(sequences, "sequences is null");
        if (maxBufferedRows < 1) {
            throw new IllegalArgumentException("maxBufferedRows " + maxBufferedRows + " must be positive");
        }
    }
}
