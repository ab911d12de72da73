package io.shardgate.storage.capability;

import io.shardgate.storage.Engine;

import java.time.Duration;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

import static io.shardgate.storage.capability.AlterAlgorithm.COPY;
import static io.shardgate.storage.capability.AlterAlgorithm.INPLACE;
import static io.shardgate.storage.capability.AlterAlgorithm.INSTANT;
import static io.shardgate.storage.capability.AlterAlgorithm.NOCOPY;
import static io.shardgate.storage.capability.AlterLock.EXCLUSIVE;
import static io.shardgate.storage.capability.AlterLock.NONE;
import static io.shardgate.storage.capability.AlterLock.SHARED;
import static java.util.Objects.requireNonNull;

/** InnoDB's capabilities, derived from a server's {@link ServerFacts}. */
public final class InnoDbCapabilities {
    /** Page-compression algorithms and the status value that says each one is usable. */
    private static final Map<String, String> PROVIDED_ALGORITHMS = Map.of(
            "lz4", "Innodb_have_lz4",
            "lzo", "Innodb_have_lzo",
            "lzma", "Innodb_have_lzma",
            "bzip2", "Innodb_have_bzip2",
            "snappy", "Innodb_have_snappy");
    private static final int[] KEY_BLOCK_SIZES = {1, 2, 4, 8, 16};

    /**
     * The least blocking ALGORITHM/LOCK per operation, each verified on MariaDB 10.11.19 by
     * running the operation with every stricter choice first (see docs/engines.md).
     */
    public static final OnlineDdl ONLINE_DDL = new OnlineDdl(rules(), java.util.Optional.empty());

    private InnoDbCapabilities() {
    }

    public static EngineCapabilities from(ServerFacts facts) {
        requireNonNull(facts, "facts is null");
        TransactionSupport transactions = new TransactionSupport(
                EnumSet.allOf(IsolationLevel.class), true, EnumSet.allOf(BinlogFormat.class),
                Duration.ofSeconds(facts.longVariable("innodb_lock_wait_timeout")), OptionalLong.empty());
        SchemaSupport schema = new SchemaSupport(true, true, facts.isOn("have_geometry", true), true,
                keyBlockSizes(facts.longVariable("innodb_page_size")),
                !facts.isOn("innodb_read_only_compressed", false));
        Set<String> algorithms = new LinkedHashSet<>(Set.of("none", "zlib"));
        PROVIDED_ALGORITHMS.forEach((algorithm, status) -> {
            if (facts.statusOn(status)) {
                algorithms.add(algorithm);
            }
        });
        CompressionSupport compression = new CompressionSupport("innodb_compression_algorithm", algorithms,
                facts.variable("innodb_compression_algorithm").orElse("none").toLowerCase(Locale.ROOT));
        return new EngineCapabilities(Engine.INNODB, facts.version(), transactions, schema, compression, ONLINE_DDL,
                ColumnFamilySupport.none());
    }

    /** ROW_FORMAT=COMPRESSED needs a page size of at most 16k; the block may not exceed the page. */
    static Set<Integer> keyBlockSizes(long pageSize) {
        Set<Integer> sizes = new LinkedHashSet<>();
        if (pageSize <= 16384) {
            for (int size : KEY_BLOCK_SIZES) {
                if (size * 1024L <= pageSize) {
                    sizes.add(size);
                }
            }
        }
        return sizes;
    }

    private static Map<AlterOperation, OnlineDdlRule> rules() {
        Map<AlterOperation, OnlineDdlRule> rules = new EnumMap<>(AlterOperation.class);
        rules.put(AlterOperation.ADD_INDEX, OnlineDdlRule.exact(NOCOPY, NONE));
        rules.put(AlterOperation.ADD_FULLTEXT_INDEX, OnlineDdlRule.exact(INPLACE, SHARED));
        rules.put(AlterOperation.ADD_SPATIAL_INDEX, OnlineDdlRule.exact(NOCOPY, SHARED));
        rules.put(AlterOperation.DROP_INDEX, OnlineDdlRule.exact(NOCOPY, NONE));
        rules.put(AlterOperation.RENAME_INDEX, OnlineDdlRule.exact(INSTANT, NONE));
        rules.put(AlterOperation.ADD_PRIMARY_KEY, OnlineDdlRule.exact(INPLACE, NONE));
        rules.put(AlterOperation.DROP_PRIMARY_KEY, OnlineDdlRule.exact(COPY, SHARED));
        // NOCOPY/NONE only with foreign_key_checks=OFF; with checks on the server wants COPY.
        rules.put(AlterOperation.ADD_FOREIGN_KEY, OnlineDdlRule.lockOnly(NOCOPY, NONE));
        rules.put(AlterOperation.DROP_FOREIGN_KEY, OnlineDdlRule.exact(INSTANT, NONE));
        rules.put(AlterOperation.ADD_COLUMN, OnlineDdlRule.exact(INSTANT, NONE));
        rules.put(AlterOperation.ADD_AUTO_INCREMENT_COLUMN, OnlineDdlRule.exact(INPLACE, SHARED));
        rules.put(AlterOperation.DROP_COLUMN, OnlineDdlRule.exact(INSTANT, NONE));
        // Widening a VARCHAR is INSTANT, NOT NULL is INPLACE, a type change is COPY.
        rules.put(AlterOperation.MODIFY_COLUMN, OnlineDdlRule.lockOnly(INSTANT, NONE));
        rules.put(AlterOperation.RENAME_COLUMN, OnlineDdlRule.exact(INSTANT, NONE));
        rules.put(AlterOperation.CHANGE_COLUMN_DEFAULT, OnlineDdlRule.exact(INSTANT, NONE));
        rules.put(AlterOperation.RENAME_TABLE, OnlineDdlRule.exact(INSTANT, EXCLUSIVE));
        rules.put(AlterOperation.CHANGE_ENGINE, OnlineDdlRule.exact(COPY, SHARED));
        rules.put(AlterOperation.REBUILD, OnlineDdlRule.exact(INPLACE, NONE));
        rules.put(AlterOperation.CHANGE_AUTO_INCREMENT, OnlineDdlRule.exact(INSTANT, NONE));
        rules.put(AlterOperation.TABLE_OPTIONS, OnlineDdlRule.exact(INSTANT, NONE));
        // INSTANT when the columns already have the character set, COPY when they change.
        rules.put(AlterOperation.CONVERT_CHARSET, OnlineDdlRule.lockOnly(INSTANT, NONE));
        rules.put(AlterOperation.OTHER, OnlineDdlRule.unknown());
        return rules;
    }
}
