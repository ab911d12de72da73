package io.shardgate.replication.diff;

import io.shardgate.storage.checksum.PkRange;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a chunk's range into parts that a target's connections in one snapshot ({@link Snapshot#targetLanes})
 * checksum at once; the parts' counts add and their CRCs XOR to the range's. Only a range of a single integer key with
 * both bounds is split, into equal key spans: {@code [100, 400)} in 3 lanes is {@code [100, 200), [200, 300), [300,
 * 400)}. Any other range (a composite or text key, the first or the last chunk) stays whole, as does one spanning
 * fewer keys than lanes.
 */
final class Lanes {
    private Lanes() {
    }

    static List<PkRange> split(PkRange range, int lanes, KeyOrder order) {
        if (lanes < 2 || !order.integerKey() || range.lowerInclusive().size() != 1 || range.upperExclusive().size() != 1) {
            return List.of(range);
        }
        BigInteger lower = integer(range.lowerInclusive().get(0));
        BigInteger upper = integer(range.upperExclusive().get(0));
        if (lower == null || upper == null) {
            return List.of(range);
        }
        BigInteger step = upper.subtract(lower).divide(BigInteger.valueOf(lanes));
        if (step.signum() <= 0) {
            return List.of(range);
        }
        List<PkRange> parts = new ArrayList<>(lanes);
        List<Object> from = range.lowerInclusive();
        for (int i = 1; i < lanes; i++) {
            BigInteger at = lower.add(step.multiply(BigInteger.valueOf(i)));
            List<Object> to = List.of(at.bitLength() < 64 ? (Object) at.longValueExact() : at);
            parts.add(new PkRange(from, to));
            from = to;
        }
        parts.add(new PkRange(from, range.upperExclusive()));
        return parts;
    }

    private static BigInteger integer(Object value) {
        if (value instanceof BigInteger big) {
            return big;
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return BigInteger.valueOf(((Number) value).longValue());
        }
        return null;
    }
}
