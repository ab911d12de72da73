package io.shardgate.storage.capability;

import static java.util.Objects.requireNonNull;

/**
 * One MyRocks column family, from {@code information_schema.ROCKSDB_CF_OPTIONS}.
 *
 * @param name                  such as {@code default} or {@code __system__}
 * @param compression           {@code COMPRESSION_TYPE}, such as {@code kLZ4Compression}
 * @param bottommostCompression {@code BOTTOMMOST_COMPRESSION}; {@code kDisableCompressionOption} means "as the others"
 * @param bloomFilter           {@code TABLE_FACTORY::FILTER_POLICY}; empty when the family has no filter
 * @param writeBufferBytes      {@code WRITE_BUFFER_SIZE}: one memtable's size
 */
public record ColumnFamily(String name, String compression, String bottommostCompression, String bloomFilter,
                           long writeBufferBytes) {
    public ColumnFamily {
        requireNonNull(name, "name is null");
        requireNonNull(compression, "compression is null");
        requireNonNull(bottommostCompression, "bottommostCompression is null");
        requireNonNull(bloomFilter, "bloomFilter is null");
    }

    public boolean hasBloomFilter() {
        return !bloomFilter.isEmpty();
    }
}
