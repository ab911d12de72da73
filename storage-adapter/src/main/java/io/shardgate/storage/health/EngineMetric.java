package io.shardgate.storage.health;

import java.util.List;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * An engine value a health probe reads, under a stable metric name that the proxy registers as a
 * gauge. A {@link io.shardgate.storage.StorageAdapter} declares the metrics its sampler reads
 * ({@link io.shardgate.storage.StorageAdapter#metrics()}), so an engine's adapter brings its own;
 * the constants here are the ones the InnoDB and MyRocks adapters declare. {@link Kind#COUNTER}
 * values only grow while the server runs (they restart at zero with it); {@link Kind#GAUGE} values
 * go up and down. Two metrics are the same when all their parts are.
 *
 * @param metricName  the gauge's name: {@code shardgate.engine.} and lower-case dotted words
 * @param kind        counter or gauge
 * @param unit        what one unit of the value is, such as {@code bytes}
 * @param description one line for the gauge's help text
 */
public record EngineMetric(String metricName, Kind kind, String unit, String description) {
    private static final Pattern NAME = Pattern.compile("shardgate\\.engine\\.[a-z0-9_]+(\\.[a-z0-9_]+)*");

    public static final EngineMetric ROCKSDB_STALL_STOPS = new EngineMetric("shardgate.engine.rocksdb.stall.stops",
            Kind.COUNTER, "stops", "Write stops since server start (Rocksdb_stall_total_stops)");
    public static final EngineMetric ROCKSDB_STALL_SLOWDOWNS = new EngineMetric("shardgate.engine.rocksdb.stall.slowdowns",
            Kind.COUNTER, "slowdowns", "Write slowdowns since server start (Rocksdb_stall_total_slowdowns)");
    public static final EngineMetric ROCKSDB_STALL_MICROS = new EngineMetric("shardgate.engine.rocksdb.stall.time",
            Kind.COUNTER, "microseconds", "Time writers spent stalled since server start (Rocksdb_stall_micros)");
    public static final EngineMetric ROCKSDB_COMPACTION_PENDING = new EngineMetric("shardgate.engine.rocksdb.compaction.pending",
            Kind.GAUGE, "column families",
            "Column families with a compaction pending (information_schema.ROCKSDB_CFSTATS COMPACTION_PENDING)");
    public static final EngineMetric ROCKSDB_FLUSH_PENDING = new EngineMetric("shardgate.engine.rocksdb.flush.pending",
            Kind.GAUGE, "column families", "Column families with a memtable flush pending (ROCKSDB_CFSTATS MEM_TABLE_FLUSH_PENDING)");
    public static final EngineMetric ROCKSDB_IMMUTABLE_MEMTABLES = new EngineMetric("shardgate.engine.rocksdb.memtables.immutable",
            Kind.GAUGE, "memtables", "Full memtables waiting to be flushed (ROCKSDB_CFSTATS NUM_IMMUTABLE_MEM_TABLE)");
    public static final EngineMetric ROCKSDB_MEMTABLE_BYTES = new EngineMetric("shardgate.engine.rocksdb.memtables.size",
            Kind.GAUGE, "bytes", "Memory used by the memtables of all column families (ROCKSDB_CFSTATS CUR_SIZE_ALL_MEM_TABLES)");
    public static final EngineMetric ROCKSDB_BACKGROUND_ERRORS = new EngineMetric("shardgate.engine.rocksdb.background.errors",
            Kind.COUNTER, "errors", "Background errors since server start (ROCKSDB_DBSTATS DB_BACKGROUND_ERRORS)");
    public static final EngineMetric INNODB_HISTORY_LIST_LENGTH = new EngineMetric("shardgate.engine.innodb.history.list.length",
            Kind.GAUGE, "undo logs", "Undo log records not yet purged (INNODB_METRICS trx_rseg_history_len)");
    public static final EngineMetric INNODB_PAGE_COMPRESSION_SAVED = new EngineMetric("shardgate.engine.innodb.page.compression.saved",
            Kind.COUNTER, "bytes", "Bytes saved by page compression since server start (Innodb_page_compression_saved)");
    public static final EngineMetric INNODB_CORRUPT_INDEXES = new EngineMetric("shardgate.engine.innodb.indexes.corrupt",
            Kind.GAUGE, "indexes", "Indexes InnoDB marked corrupt (INNODB_SYS_INDEXES.TYPE & 16)");
    public static final EngineMetric TABLE_ALLOCATED_BYTES = new EngineMetric("shardgate.engine.tables.allocated",
            Kind.GAUGE, "bytes", "Disk space of the user tables in the shard's engine"
            + " (InnoDB: ALLOCATED_SIZE of their tablespaces; MyRocks: DATA_LENGTH + INDEX_LENGTH)");

    /** The metrics of the adapters Shardgate ships, InnoDB's and MyRocks'. */
    private static final List<EngineMetric> BUILT_IN = List.of(ROCKSDB_STALL_STOPS, ROCKSDB_STALL_SLOWDOWNS,
            ROCKSDB_STALL_MICROS, ROCKSDB_COMPACTION_PENDING, ROCKSDB_FLUSH_PENDING, ROCKSDB_IMMUTABLE_MEMTABLES,
            ROCKSDB_MEMTABLE_BYTES, ROCKSDB_BACKGROUND_ERRORS, INNODB_HISTORY_LIST_LENGTH, INNODB_PAGE_COMPRESSION_SAVED,
            INNODB_CORRUPT_INDEXES, TABLE_ALLOCATED_BYTES);

    public EngineMetric {
        requireNonNull(metricName, "metricName is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(unit, "unit is null");
        requireNonNull(description, "description is null");
        if (!NAME.matcher(metricName).matches()) {
            throw new IllegalArgumentException("engine metric name '" + metricName
                    + "' (expected: shardgate.engine. and lower-case dotted words)");
        }
    }

    /** The metrics of the adapters Shardgate ships (InnoDB's and MyRocks'), in a stable order. */
    public static EngineMetric[] values() {
        return BUILT_IN.toArray(new EngineMetric[0]);
    }

    public enum Kind {
        COUNTER,
        GAUGE
    }
}
