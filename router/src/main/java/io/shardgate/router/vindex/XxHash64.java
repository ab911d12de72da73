package io.shardgate.router.vindex;

import static java.util.Objects.requireNonNull;

/**
 * XXH64 (xxHash, 64-bit, seed 0) as specified at https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md.
 * Any implementation of that spec gives the same keyspace ids, so a shard key's placement can be
 * computed outside Shardgate (see docs/sharding.md).
 */
public final class XxHash64 {
    private static final long P1 = 0x9E3779B185EBCA87L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P3 = 0x165667B19E3779F9L;
    private static final long P4 = 0x85EBCA77C2B2AE63L;
    private static final long P5 = 0x27D4EB2F165667C5L;

    private XxHash64() {
    }

    /** The XXH64 of {@code input} with seed 0. */
    public static long hash(byte[] input) {
        requireNonNull(input, "input is null");
        int length = input.length;
        int p = 0;
        long h;
        if (length >= 32) {
            long v1 = P1 + P2;
            long v2 = P2;
            long v3 = 0;
            long v4 = -P1;
            int limit = length - 32;
            do {
                v1 = round(v1, readLong(input, p));
                v2 = round(v2, readLong(input, p + 8));
                v3 = round(v3, readLong(input, p + 16));
                v4 = round(v4, readLong(input, p + 24));
                p += 32;
            } while (p <= limit);
            h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
            h = mergeRound(h, v1);
            h = mergeRound(h, v2);
            h = mergeRound(h, v3);
            h = mergeRound(h, v4);
        }
        else {
            h = P5;
        }
        h += length;
        while (p + 8 <= length) {
            h ^= round(0, readLong(input, p));
            h = Long.rotateLeft(h, 27) * P1 + P4;
            p += 8;
        }
        if (p + 4 <= length) {
            h ^= (readInt(input, p) & 0xFFFF_FFFFL) * P1;
            h = Long.rotateLeft(h, 23) * P2 + P3;
            p += 4;
        }
        while (p < length) {
            h ^= (input[p] & 0xFFL) * P5;
            h = Long.rotateLeft(h, 11) * P1;
            p++;
        }
        h ^= h >>> 33;
        h *= P2;
        h ^= h >>> 29;
        h *= P3;
        h ^= h >>> 32;
        return h;
    }

    private static long round(long acc, long lane) {
        acc += lane * P2;
        acc = Long.rotateLeft(acc, 31);
        return acc * P1;
    }

    private static long mergeRound(long acc, long value) {
        acc ^= round(0, value);
        return acc * P1 + P4;
    }

    private static long readLong(byte[] b, int p) {
        return (readInt(b, p) & 0xFFFF_FFFFL) | ((long) readInt(b, p + 4) << 32);
    }

    private static int readInt(byte[] b, int p) {
        return (b[p] & 0xFF) | (b[p + 1] & 0xFF) << 8 | (b[p + 2] & 0xFF) << 16 | (b[p + 3] & 0xFF) << 24;
    }
}
