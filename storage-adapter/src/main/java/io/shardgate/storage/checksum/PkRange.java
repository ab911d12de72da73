package io.shardgate.storage.checksum;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A range of primary-key values, {@code lower <= pk < upper}; either bound may be absent (an
 * empty list). For a composite key each bound holds one value per key column, compared as a row.
 */
public record PkRange(List<Object> lowerInclusive, List<Object> upperExclusive) {
    public PkRange {
        lowerInclusive = Collections.unmodifiableList(new ArrayList<>(requireNonNull(lowerInclusive, "lowerInclusive is null")));
        upperExclusive = Collections.unmodifiableList(new ArrayList<>(requireNonNull(upperExclusive, "upperExclusive is null")));
    }

    /** The whole table. */
    public static PkRange all() {
        return new PkRange(List.of(), List.of());
    }

    /** {@code lower <= pk < upper} for a single-column key. */
    public static PkRange of(Object lowerInclusive, Object upperExclusive) {
        return new PkRange(List.of(lowerInclusive), List.of(upperExclusive));
    }

    public boolean isAll() {
        return lowerInclusive.isEmpty() && upperExclusive.isEmpty();
    }
}
