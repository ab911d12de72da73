package io.shardgate.storage.checksum;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One row as a diff sees it: its primary-key values (as the driver reads them) and its CRC32, the
 * value {@link TableChecksum} XORs over a range.
 */
public record RowChecksum(List<Object> key, long crc) {
    public RowChecksum {
        key = Collections.unmodifiableList(new ArrayList<>(requireNonNull(key, "key is null")));
        if (crc < 0 || crc > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("crc: " + crc + " (expected: an unsigned 32-bit value)");
        }
    }
}
