package io.shardgate.proxy.frontend;

import io.netty.channel.EventLoop;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A table's size on shards by its engine's own statistics ({@code information_schema.TABLES}:
 * TABLE_ROWS, DATA_LENGTH + INDEX_LENGTH), its rows at least as many as a count that stops at
 * {@code countUpTo} finds (statistics lag writes: MyRocks caches its memtable's for a minute, InnoDB
 * recalculates in the background), read without blocking the caller. {@link PoolTableSizes} asks
 * the shards' primaries; tests give their own.
 */
interface TableSizes {
    /** Rows and bytes (data and indexes) as the engine estimates them; 0 and 0 where there is no such table. */
    record Size(long rows, long bytes) {
    }

    /** Each of {@code shards}' size of {@code schema.table}, in the order given; completes on any thread. */
    CompletableFuture<Map<String, Size>> of(List<String> shards, String schema, String table, long countUpTo, EventLoop loop);
}
