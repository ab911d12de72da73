package io.shardgate.proxy.frontend;

import io.netty.channel.EventLoop;
import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.proxy.backend.TextResult;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * {@link TableSizes} from each shard's primary, over a connection of its backend pool (asynchronous,
 * like every other backend call; the event loop never waits). The names travel as hex literals.
 */
final class PoolTableSizes implements TableSizes {
    private final Function<String, BackendPool> primaries;

    /** {@code primaries}: a shard's name to its primary's pool. */
    PoolTableSizes(Function<String, BackendPool> primaries) {
        this.primaries = primaries;
    }

    /** The primaries of the context's shards: each shard's in a sharded deployment, else the one shard's. */
    static PoolTableSizes of(FrontendContext context) {
        return new PoolTableSizes(shard -> context.sharding().map(deployment -> deployment.shard(shard).primary())
                .orElseGet(() -> context.backends().primary()));
    }

    @Override
    public CompletableFuture<Map<String, Size>> of(List<String> shards, String schema, String table, EventLoop loop) {
        String sql = "SELECT IFNULL(TABLE_ROWS, 0), IFNULL(DATA_LENGTH, 0) + IFNULL(INDEX_LENGTH, 0) FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = " + literal(schema) + " AND TABLE_NAME = " + literal(table);
        List<CompletableFuture<Size>> sizes = new ArrayList<>();
        for (String shard : shards) {
            sizes.add(size(primaries.apply(shard), sql, loop));
        }
        return CompletableFuture.allOf(sizes.toArray(CompletableFuture[]::new)).thenApply(done -> {
            Map<String, Size> byShard = new LinkedHashMap<>();
            for (int i = 0; i < shards.size(); i++) {
                byShard.put(shards.get(i), sizes.get(i).join());
            }
            return byShard;
        });
    }

    private static CompletableFuture<Size> size(BackendPool pool, String sql, EventLoop loop) {
        return pool.acquire(loop, 0, "").thenCompose(connection -> connection.query(sql).whenComplete((result, error) -> {
            if (error == null) {
                pool.release(connection);
            } else {
                pool.discard(connection);
            }
        })).thenApply(PoolTableSizes::size);
    }

    private static Size size(TextResult result) {
        if (result.rows().isEmpty()) {
            return new Size(0, 0);
        }
        List<byte[]> row = result.rows().get(0);
        return new Size(number(row.get(0)), number(row.get(1)));
    }

    private static long number(byte[] value) {
        return value == null ? 0 : Long.parseLong(new String(value, StandardCharsets.US_ASCII));
    }

    /** {@code text} as a utf8mb4 string literal that nothing in it can end. */
    static String literal(String text) {
        return "CONVERT(x'" + HexFormat.of().formatHex(text.getBytes(StandardCharsets.UTF_8)) + "' USING utf8mb4)";
    }
}
