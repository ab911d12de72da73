package io.shardgate.storage.capability;

import io.shardgate.storage.Engine;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * What one backend's engine allows, probed from the live server where it says so (plugins,
 * variables, information_schema) and known per engine otherwise (isolation levels, gap locks,
 * the online-DDL table). Immutable; {@link io.shardgate.storage.StorageAdapter#capabilities}
 * builds it from {@link ServerFacts}.
 */
public record EngineCapabilities(Engine engine, String serverVersion, TransactionSupport transactions,
                                 SchemaSupport schema, CompressionSupport compression, OnlineDdl onlineDdl,
                                 ColumnFamilySupport columnFamilies) {
    public EngineCapabilities {
        requireNonNull(engine, "engine is null");
        requireNonNull(serverVersion, "serverVersion is null");
        requireNonNull(transactions, "transactions is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(compression, "compression is null");
        requireNonNull(onlineDdl, "onlineDdl is null");
        requireNonNull(columnFamilies, "columnFamilies is null");
    }

    /**
     * The capabilities as plain maps, lists, strings, numbers and booleans under stable keys,
     * for the admin API's {@code "capabilities"} object.
     */
    public Map<String, Object> describe() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("engine", engine.configName());
        out.put("server_version", serverVersion);
        out.put("isolation_levels", transactions.isolationLevels().stream().sorted().map(IsolationLevel::sql).toList());
        out.put("gap_locks", transactions.gapLocks());
        out.put("binlog_formats", transactions.binlogFormats().stream().sorted().map(Enum::name).toList());
        out.put("lock_wait_timeout_seconds", transactions.lockWaitTimeout().toSeconds());
        out.put("row_lock_limit", transactions.rowLockLimit().isPresent() ? transactions.rowLockLimit().getAsLong() : null);
        out.put("foreign_keys", schema.foreignKeys());
        out.put("fulltext_indexes", schema.fulltextIndexes());
        out.put("spatial_types", schema.spatialTypes());
        out.put("row_format_options", schema.rowFormatOptions());
        out.put("key_block_sizes", List.copyOf(schema.keyBlockSizes()));
        out.put("compressed_row_format_writable", schema.compressedRowFormatWritable());
        out.put("compression_setting", compression.setting());
        out.put("compression_algorithms", List.copyOf(compression.available()));
        out.put("compression_current", compression.current());
        out.put("online_ddl", onlineDdl.describe());
        List<Map<String, Object>> families = columnFamilies.families().stream().map(family -> {
            Map<String, Object> each = new LinkedHashMap<>();
            each.put("name", family.name());
            each.put("compression", family.compression());
            each.put("bottommost_compression", family.bottommostCompression());
            each.put("bloom_filter", family.bloomFilter());
            each.put("write_buffer_bytes", family.writeBufferBytes());
            return each;
        }).toList();
        out.put("column_families", families);
        out.put("bloom_filter_on_read", columnFamilies.bloomFilterOnRead());
        return java.util.Collections.unmodifiableMap(out);
    }
}
