package io.shardgate.proxy.frontend;

import io.netty.channel.EventLoop;
import io.shardgate.proxy.backend.BackendPool;

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
    public CompletableFuture<Map<String, Size>> of(List<String> shards, String schema, String table, long countUpTo, EventLoop loop) {
        String stats = "SELECT IFNULL(TABLE_ROWS, 0), IFNULL(DATA_LENGTH, 0) + IFNULL(INDEX_LENGTH, 0) FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = " + literal(schema) + " AND TABLE_NAME = " + literal(table);
        // A consistent read of at most countUpTo rows: exact below the bound, whatever the statistics say.
        String count = "SELECT COUNT(*) FROM (SELECT 1 FROM " + identifier(schema) + "." + identifier(table) + " LIMIT "
                + Math.max(1, countUpTo) + ") AS sized";
        List<CompletableFuture<Size>> sizes = new ArrayList<>();
        for (String shard : shards) {
            sizes.add(size(primaries.apply(shard), stats, count, loop));
        }
        return CompletableFuture.allOf(sizes.toArray(CompletableFuture[]::new)).thenApply(done -> {
            Map<String, Size> byShard = new LinkedHashMap<>();
            for (int i = 0; i < shards.size(); i++) {
                byShard.put(shards.get(i), sizes.get(i).join());
            }
            return byShard;
        });
    }

    /** The statistics, then (when the table exists) the bounded count, on one connection of {@code pool}. */
    private static CompletableFuture<Size> size(BackendPool pool, String stats, String count, EventLoop loop) {
        return pool.acquire(loop, 0, "").thenCompose(connection -> connection.query(stats).thenCompose(result -> {
            if (result.rows().isEmpty()) {
                return CompletableFuture.completedFuture(new Size(0, 0));
            }
            List<byte[]> row = result.rows().get(0);
            long rows = number(row.get(0));
            long bytes = number(row.get(1));
            return connection.query(count).thenApply(counted -> new Size(Math.max(rows, number(counted.rows().get(0).get(0))), bytes));
        }).whenComplete((size, error) -> {
            if (error == null) {
                pool.release(connection);
            } else {
                pool.discard(connection);
            }
        }));
    }

    private static long number(byte[] value) {
        return value == null ? 0 : Long.parseLong(new String(value, StandardCharsets.US_ASCII));
    }

    /** {@code name} as a quoted identifier. */
    static String identifier(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    /** {@code text} as a utf8mb4 string literal that nothing in it can end. */
    static String literal(String text) {
        return "CONVERT(x'" + HexFormat.of().formatHex(text.getBytes(StandardCharsets.UTF_8)) + "' USING utf8mb4)";
    }
}
