package io.shardgate.storage.checksum;

import java.util.Locale;

/**
 * Row count and checksum of some rows: the checksum is {@code BIT_XOR} of each row's
 * {@code CRC32}, an unsigned 32-bit value. Two results combine by adding the counts and
 * XOR-ing the checksums, so the checksum of a sharded table is the combination of its shards'.
 */
public record ChecksumResult(long rows, long checksum) {
    public ChecksumResult {
        if (rows < 0) {
            throw new IllegalArgumentException("rows: " + rows + " (expected: >= 0)");
        }
        if (checksum < 0 || checksum > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("checksum: " + checksum + " (expected: an unsigned 32-bit value)");
        }
    }

    public static ChecksumResult empty() {
        return new ChecksumResult(0, 0);
    }

    public ChecksumResult combine(ChecksumResult other) {
        return new ChecksumResult(rows + other.rows, checksum ^ other.checksum);
    }

    /** The checksum as eight hex digits. */
    public String hex() {
        return String.format(Locale.ROOT, "%08x", checksum);
    }
}
