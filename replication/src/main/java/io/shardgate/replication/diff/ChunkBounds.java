package io.shardgate.replication.diff;

import io.shardgate.storage.checksum.PkRange;

import java.math.BigInteger;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * Where a chunk that starts at a key ends. Any answer is correct, since consecutive chunks always
 * partition the key space (the last one is unbounded above); the answer only decides how many rows a
 * chunk holds.
 */
interface ChunkBounds {

    /** The chunk's exclusive upper bound for about {@code rows} source rows from {@code lower}; empty: to the end. */
    Optional<List<Object>> upper(Snapshot snapshot, List<Object> lower, long rows) throws SQLException;

    /** The last chunk held {@code sourceRows} source rows. */
    void observe(long sourceRows);

    /** A new set of snapshots is open: what was learnt of the previous one's contents no longer holds. */
    void reopened();

    /** The bounds for keys in {@code order}: computed for a single integer column, walked otherwise. */
    static ChunkBounds forKey(KeyOrder order) {
        return order.integerKey() ? new Integers() : new Walked();
    }

    /**
     * The keyed index walk on the source, {@code WHERE pk >= lower ORDER BY pk LIMIT 1 OFFSET rows}: exact
     * row counts for any key, at the cost of reading the chunk's keys once more.
     */
    final class Walked implements ChunkBounds {
        @Override
        public Optional<List<Object>> upper(Snapshot snapshot, List<Object> lower, long rows) throws SQLException {
            return snapshot.source().keyAt(new PkRange(lower, List.of()), rows);
        }

        @Override
        public void observe(long sourceRows) {
        }

        @Override
        public void reopened() {
        }
    }

    /**
     * For one integer key column, the bound is computed: {@code lower + rows × keysPerRow}, where keys per
     * row (at least 1, as keys are unique) is learnt from the last chunk; past the source's greatest key
     * (read once per snapshot, an index dive) the chunk is the last. The span starts at the source's first key at or
     * above the chunk's lower bound (another dive), so a gap in the keys (ids of two ranges far apart) is skipped in
     * one chunk instead of chunks of no rows. No walk, so the source reads each row once, as a checksum of the table
     * alone would. For example with keys 1..1,000,000 and every other key
     * deleted, the first 10,000-key chunk holds 5,000 rows, the next plans 2 keys per row.
     */
    final class Integers implements ChunkBounds {
        private static final double MAX_KEYS_PER_ROW = 1e15;

        private double keysPerRow = 1.0;
        private long lastSpan;
        private Optional<BigInteger> last;

        @Override
        public Optional<List<Object>> upper(Snapshot snapshot, List<Object> lower, long rows) throws SQLException {
            if (last == null) {
                last = snapshot.source().lastKey().map(key -> integer(key.get(0)));
            }
            if (last.isEmpty()) {
                return Optional.empty();
            }
            // From the source's first key at or above the lower bound (an index dive): a gap in the keys costs no chunks.
            Optional<List<Object>> first = snapshot.source().keyAt(lower.isEmpty() ? PkRange.all() : new PkRange(lower, List.of()), 0);
            if (first.isEmpty()) {
                return Optional.empty();
            }
            BigInteger from = integer(first.get().get(0));
            lastSpan = Math.max(1, Math.round(Math.min(rows * keysPerRow, MAX_KEYS_PER_ROW)));
            BigInteger upper = from.add(BigInteger.valueOf(lastSpan));
            if (upper.compareTo(last.get()) > 0) {
                return Optional.empty();
            }
            return Optional.of(List.of(upper.bitLength() < 64 ? (Object) upper.longValueExact() : upper));
        }

        @Override
        public void observe(long sourceRows) {
            keysPerRow = sourceRows > 0 ? Math.max(1.0, (double) lastSpan / sourceRows)
                    : Math.min(MAX_KEYS_PER_ROW, keysPerRow * 2);
        }

        @Override
        public void reopened() {
            last = null;
        }

        double keysPerRow() {
            return keysPerRow;
        }

        private static BigInteger integer(Object value) {
            if (value instanceof BigInteger big) {
                return big;
            }
            if (value instanceof Number number) {
                return BigInteger.valueOf(number.longValue());
            }
            throw new IllegalArgumentException("an integer key read as " + value.getClass().getName());
        }
    }
}
