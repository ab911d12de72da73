package io.shardgate.storage.capability;

import java.util.Set;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * Which table definitions an engine honours.
 *
 * @param foreignKeys                 FOREIGN KEY and inline REFERENCES
 * @param fulltextIndexes             FULLTEXT indexes
 * @param spatialTypes                GEOMETRY columns and SPATIAL indexes
 * @param rowFormatOptions            whether ROW_FORMAT, KEY_BLOCK_SIZE and PAGE_COMPRESSED take
 *                                    effect (MyRocks stores them and ignores them)
 * @param keyBlockSizes               the valid non-zero KEY_BLOCK_SIZE values (InnoDB: 1..16, at
 *                                    most {@code innodb_page_size}/1024; none with 32k/64k pages)
 * @param compressedRowFormatWritable false when {@code innodb_read_only_compressed=ON} makes
 *                                    ROW_FORMAT=COMPRESSED tables read-only
 */
public record SchemaSupport(boolean foreignKeys, boolean fulltextIndexes, boolean spatialTypes,
                            boolean rowFormatOptions, Set<Integer> keyBlockSizes,
                            boolean compressedRowFormatWritable) {
    public SchemaSupport {
        keyBlockSizes = java.util.Collections.unmodifiableSet(
                new TreeSet<>(requireNonNull(keyBlockSizes, "keyBlockSizes is null")));
    }
}
