package io.shardgate.router.planner;

import io.shardgate.router.exec.ColumnMeta;
import io.shardgate.router.exec.Completion;
import io.shardgate.router.exec.Row;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.exec.ShardCursor;
import io.shardgate.router.exec.ShardStatement;
import io.shardgate.router.exec.Streams;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Shards for plan execution tests: each answers with the rows it was given (or, for a write, one
 * affected row per statement), and every statement sent is recorded. A shard can be told to fail,
 * or to report warnings for its writes.
 */
final class FakeShards implements ShardCursor {
    private final Map<String, List<ColumnMeta>> columns = new HashMap<>();
    private final Map<String, List<Row>> rows = new HashMap<>();
    private final Map<String, RuntimeException> failures = new HashMap<>();
    private final Map<String, Integer> warnings = new HashMap<>();
    final List<ShardStatement> sent = new ArrayList<>();

    /** {@code shard} answers every query with these rows. */
    FakeShards answer(String shard, List<ColumnMeta> resultColumns, Row... result) {
        columns.put(shard, resultColumns);
        rows.put(shard, List.of(result));
        return this;
    }

    FakeShards fail(String shard, String message) {
        failures.put(shard, new IllegalStateException(message));
        return this;
    }

    /** {@code shard}'s writes report {@code count} warnings. */
    FakeShards warn(String shard, int count) {
        warnings.put(shard, count);
        return this;
    }

    @Override
    public RowStream execute(ShardStatement statement) {
        sent.add(statement);
        RuntimeException failure = failures.get(statement.shard());
        if (failure != null) {
            throw failure;
        }
        if (!columns.containsKey(statement.shard())) {
            return Streams.completed(new Completion(1, 0, warnings.getOrDefault(statement.shard(), 0)));
        }
        return Streams.of(columns.get(statement.shard()), rows.get(statement.shard()));
    }

    /** "shard: sql [parameters]" of every statement sent, in order. */
    List<String> log() {
        return sent.stream().map(s -> s.shard() + ": " + s.sql() + (s.parameters().isEmpty() ? "" : " " + s.parameters())).toList();
    }
}
