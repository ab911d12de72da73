package io.shardgate.storage.health;

/**
 * The engine values a health probe reads, under stable metric names that the proxy registers
 * as gauges. {@link Kind#COUNTER} values only grow while the server runs (they restart at zero
 * with it); {@link Kind#GAUGE} values go up and down.
 */
public enum EngineMetric {
    ROCKSDB_STALL_STOPS("shardgate.engine.rocksdb.stall.stops", Kind.COUNTER, "stops",
            "Write stops since server start (Rocksdb_stall_total_stops)"),
    ROCKSDB_STALL_SLOWDOWNS("shardgate.engine.rocksdb.stall.slowdowns", Kind.COUNTER, "slowdowns",
            "Write slowdowns since server start (Rocksdb_stall_total_slowdowns)"),
    ROCKSDB_STALL_MICROS("shardgate.engine.rocksdb.stall.time", Kind.COUNTER, "microseconds",
            "Time writers spent stalled since server start (Rocksdb_stall_micros)"),
    ROCKSDB_COMPACTION_PENDING("shardgate.engine.rocksdb.compaction.pending", Kind.GAUGE, "column families",
            "Column families with a compaction pending (information_schema.ROCKSDB_CFSTATS COMPACTION_PENDING)"),
    ROCKSDB_FLUSH_PENDING("shardgate.engine.rocksdb.flush.pending", Kind.GAUGE, "column families",
            "Column families with a memtable flush pending (ROCKSDB_CFSTATS MEM_TABLE_FLUSH_PENDING)"),
    ROCKSDB_IMMUTABLE_MEMTABLES("shardgate.engine.rocksdb.memtables.immutable", Kind.GAUGE, "memtables",
            "Full memtables waiting to be flushed (ROCKSDB_CFSTATS NUM_IMMUTABLE_MEM_TABLE)"),
    ROCKSDB_MEMTABLE_BYTES("shardgate.engine.rocksdb.memtables.size", Kind.GAUGE, "bytes",
            "Memory used by the memtables of all column families (ROCKSDB_CFSTATS CUR_SIZE_ALL_MEM_TABLES)"),
    ROCKSDB_BACKGROUND_ERRORS("shardgate.engine.rocksdb.background.errors", Kind.COUNTER, "errors",
            "Background errors since server start (ROCKSDB_DBSTATS DB_BACKGROUND_ERRORS)"),
    INNODB_HISTORY_LIST_LENGTH("shardgate.engine.innodb.history.list.length", Kind.GAUGE, "undo logs",
            "Undo log records not yet purged (INNODB_METRICS trx_rseg_history_len)"),
    INNODB_PAGE_COMPRESSION_SAVED("shardgate.engine.innodb.page.compression.saved", Kind.COUNTER, "bytes",
            "Bytes saved by page compression since server start (Innodb_page_compression_saved)"),
    INNODB_CORRUPT_INDEXES("shardgate.engine.innodb.indexes.corrupt", Kind.GAUGE, "indexes",
            "Indexes InnoDB marked corrupt (INNODB_SYS_INDEXES.TYPE & 16)"),
    TABLE_ALLOCATED_BYTES("shardgate.engine.tables.allocated", Kind.GAUGE, "bytes",
            "Disk space of the user tables in the shard's engine (InnoDB: ALLOCATED_SIZE of their"
                    + " tablespaces; MyRocks: DATA_LENGTH + INDEX_LENGTH)");

    private final String metricName;
    private final Kind kind;
    private final String unit;
    private final String description;

    EngineMetric(String metricName, Kind kind, String unit, String description) {
        this.metricName = metricName;
        this.kind = kind;
        this.unit = unit;
        this.description = description;
    }

    public String metricName() {
        return metricName;
    }

    public Kind kind() {
        return kind;
    }

    public String unit() {
        return unit;
    }

    public String description() {
        return description;
    }

    public enum Kind {
        COUNTER,
        GAUGE
    }
}
