package io.shardgate.storage.capability;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * MyRocks' column families and whether reads consult their bloom filters
 * ({@code rocksdb_skip_bloom_filter_on_read=OFF}). InnoDB has none.
 */
public record ColumnFamilySupport(List<ColumnFamily> families, boolean bloomFilterOnRead) {
    public ColumnFamilySupport {
        families = List.copyOf(requireNonNull(families, "families is null"));
    }

    public static ColumnFamilySupport none() {
        return new ColumnFamilySupport(List.of(), false);
    }
}
