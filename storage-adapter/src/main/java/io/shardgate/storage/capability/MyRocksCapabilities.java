package io.shardgate.storage.capability;

import io.shardgate.storage.Engine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

import static io.shardgate.storage.capability.AlterAlgorithm.COPY;
import static io.shardgate.storage.capability.AlterAlgorithm.INPLACE;
import static io.shardgate.storage.capability.AlterAlgorithm.INSTANT;
import static io.shardgate.storage.capability.AlterLock.EXCLUSIVE;
import static io.shardgate.storage.capability.AlterLock.SHARED;
import static java.util.Objects.requireNonNull;

/** MyRocks' capabilities, derived from a server's {@link ServerFacts}. */
public final class MyRocksCapabilities {
    /**
     * MyRocks runs only ADD/DROP INDEX and AUTO_INCREMENT=n in place, and then with LOCK=SHARED;
     * everything else copies the table. Verified on MariaDB 10.11.19 (see docs/engines.md).
     */
    public static final OnlineDdl ONLINE_DDL = new OnlineDdl(rules(), java.util.Optional.of(AlterChoice.of(COPY, SHARED)));

    private MyRocksCapabilities() {
    }

    public static EngineCapabilities from(ServerFacts facts) {
        requireNonNull(facts, "facts is null");
        Set<BinlogFormat> formats = facts.isOn("rocksdb_unsafe_for_binlog", false)
                ? EnumSet.allOf(BinlogFormat.class) : EnumSet.of(BinlogFormat.ROW, BinlogFormat.MIXED);
        TransactionSupport transactions = new TransactionSupport(
                EnumSet.of(IsolationLevel.READ_COMMITTED, IsolationLevel.REPEATABLE_READ), false, formats,
                Duration.ofSeconds(facts.longVariable("rocksdb_lock_wait_timeout")),
                OptionalLong.of(facts.longVariable("rocksdb_max_row_locks")));
        SchemaSupport schema = new SchemaSupport(false, false, false, false, Set.of(), false);
        Set<String> types = new LinkedHashSet<>();
        for (String type : facts.variable("rocksdb_supported_compression_types").orElse("").split(",")) {
            if (!type.isBlank()) {
                types.add(type.trim());
            }
        }
        List<ColumnFamily> families = new ArrayList<>();
        facts.columnFamilyOptions().forEach((name, options) -> families.add(new ColumnFamily(name,
                options.getOrDefault("COMPRESSION_TYPE", ""),
                options.getOrDefault("BOTTOMMOST_COMPRESSION", ""),
                filterPolicy(options.getOrDefault("TABLE_FACTORY::FILTER_POLICY", "")),
                parseLong(options.getOrDefault("WRITE_BUFFER_SIZE", "0")))));
        families.sort(java.util.Comparator.comparing(ColumnFamily::name));
        String current = facts.columnFamilyOptions().getOrDefault("default", Map.of())
                .getOrDefault("COMPRESSION_TYPE", "");
        CompressionSupport compression = new CompressionSupport("rocksdb_default_cf_options", types, current);
        return new EngineCapabilities(Engine.ROCKSDB, facts.version(), transactions, schema, compression, ONLINE_DDL,
                new ColumnFamilySupport(families, !facts.isOn("rocksdb_skip_bloom_filter_on_read", false)));
    }

    private static String filterPolicy(String value) {
        return value.isBlank() || value.equalsIgnoreCase("nullptr") || value.equalsIgnoreCase("NULL") ? "" : value;
    }

    private static long parseLong(String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static Map<AlterOperation, OnlineDdlRule> rules() {
        Map<AlterOperation, OnlineDdlRule> rules = new EnumMap<>(AlterOperation.class);
        for (AlterOperation operation : AlterOperation.values()) {
            rules.put(operation, OnlineDdlRule.exact(COPY, SHARED));
        }
        rules.put(AlterOperation.ADD_INDEX, OnlineDdlRule.exact(INPLACE, SHARED));
        rules.put(AlterOperation.DROP_INDEX, OnlineDdlRule.exact(INPLACE, SHARED));
        rules.put(AlterOperation.CHANGE_AUTO_INCREMENT, OnlineDdlRule.exact(INPLACE, SHARED));
        // In place when nothing changes, a copy otherwise.
        rules.put(AlterOperation.CONVERT_CHARSET, OnlineDdlRule.lockOnly(INPLACE, SHARED));
        rules.put(AlterOperation.RENAME_TABLE, OnlineDdlRule.exact(INSTANT, EXCLUSIVE));
        rules.put(AlterOperation.OTHER, OnlineDdlRule.unknown());
        return rules;
    }
}
