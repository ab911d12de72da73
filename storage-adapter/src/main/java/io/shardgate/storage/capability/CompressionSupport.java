package io.shardgate.storage.capability;

import java.util.Set;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * The compression algorithms an engine can use now.
 *
 * @param setting   the server variable that selects the algorithm ({@code innodb_compression_algorithm}
 *                  for InnoDB page compression, {@code rocksdb_default_cf_options} for MyRocks)
 * @param available InnoDB: {@code none}, {@code zlib} and each algorithm whose {@code provider_*}
 *                  plugin is loaded ({@code Innodb_have_*}); MyRocks: {@code rocksdb_supported_compression_types}
 * @param current   the algorithm in use: {@code innodb_compression_algorithm}, or the default column
 *                  family's {@code COMPRESSION_TYPE}
 */
public record CompressionSupport(String setting, Set<String> available, String current) {
    public CompressionSupport {
        requireNonNull(setting, "setting is null");
        available = java.util.Collections.unmodifiableSet(
                new TreeSet<>(requireNonNull(available, "available is null")));
        requireNonNull(current, "current is null");
    }

    public boolean isAvailable(String algorithm) {
        return available.stream().anyMatch(each -> each.equalsIgnoreCase(algorithm));
    }
}
