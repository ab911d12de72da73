package io.shardgate.router.shard;

import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * A contiguous range of the 64-bit keyspace, written Vitess-style as hex bounds: {@code "-80"}
 * is everything below {@code 0x80000000_00000000}, {@code "80-"} everything from it, {@code "40-80"}
 * the quarter between, and {@code "-"} the whole keyspace. The start is inclusive and the end
 * exclusive. A bound of fewer than 16 hex digits is padded on the right with zeros, so
 * {@code "8"} and {@code "8000000000000000"} are the same point.
 *
 * <p>Keyspace ids are unsigned: {@code 0xFF…} is the largest, so comparisons use
 * {@link Long#compareUnsigned}.
 *
 * @param start inclusive lower bound; ignored when {@code unboundedStart}
 * @param end   exclusive upper bound; ignored when {@code unboundedEnd}
 */
public record KeyRange(long start, boolean unboundedStart, long end, boolean unboundedEnd) {

    public KeyRange {
        if (!unboundedStart && !unboundedEnd && Long.compareUnsigned(start, end) >= 0) {
            throw new IllegalArgumentException("key range start " + hex(start) + " is not below its end " + hex(end));
        }
    }

    /** Parses {@code "-80"}, {@code "80-"}, {@code "40-80"} or {@code "-"}. */
    public static KeyRange parse(String text) {
        requireNonNull(text, "text is null");
        String trimmed = text.trim();
        int dash = trimmed.indexOf('-');
        if (dash < 0 || trimmed.indexOf('-', dash + 1) >= 0) {
            throw new IllegalArgumentException("key range '" + text + "' must be START-END in hex, such as -80, 80- or 40-80");
        }
        String start = trimmed.substring(0, dash);
        String end = trimmed.substring(dash + 1);
        return new KeyRange(start.isEmpty() ? 0 : bound(start, text), start.isEmpty(),
                end.isEmpty() ? 0 : bound(end, text), end.isEmpty());
    }

    private static long bound(String hex, String text) {
        if (hex.length() > 16 || !hex.matches("[0-9a-fA-F]+")) {
            throw new IllegalArgumentException("key range '" + text + "': bound '" + hex
                    + "' must be 1 to 16 hex digits");
        }
        String padded = (hex + "0000000000000000").substring(0, 16);
        return Long.parseUnsignedLong(padded, 16);
    }

    public boolean contains(long keyspaceId) {
        boolean aboveStart = unboundedStart || Long.compareUnsigned(keyspaceId, start) >= 0;
        boolean belowEnd = unboundedEnd || Long.compareUnsigned(keyspaceId, end) < 0;
        return aboveStart && belowEnd;
    }

    @Override
    public String toString() {
        return (unboundedStart ? "" : shortHex(start)) + "-" + (unboundedEnd ? "" : shortHex(end));
    }

    private static String hex(long value) {
        return String.format(Locale.ROOT, "%016x", value);
    }

    /** Hex without trailing zero pairs, as Vitess prints shard names. */
    private static String shortHex(long value) {
        String hex = hex(value);
        int length = hex.length();
        while (length > 2 && hex.startsWith("00", length - 2)) {
            length -= 2;
        }
        return hex.substring(0, length);
    }
}
