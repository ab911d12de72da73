package io.shardgate.replication.diff;

import io.shardgate.storage.checksum.TableChecksum;

import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import static java.util.Objects.requireNonNull;

/**
 * One target of a diff: a name for reports (its shard), the checksum primitive of its engine
 * ({@code StorageAdapter.checksum()}), and optionally what it owns: the shard-key columns and a
 * predicate over their values (in that order) that holds for exactly the rows the target's key range
 * holds. With one, the diff also checks that every row on the target belongs there.
 */
public record DiffTarget(String shard, TableChecksum checksum, List<String> shardKeyColumns,
        Optional<Predicate<Object[]>> owns) {
    public DiffTarget {
        requireNonNull(shard, "shard is null");
        requireNonNull(checksum, "checksum is null");
        shardKeyColumns = List.copyOf(requireNonNull(shardKeyColumns, "shardKeyColumns is null"));
        requireNonNull(owns, "owns is null");
        if (owns.isPresent() == shardKeyColumns.isEmpty()) {
            throw new IllegalArgumentException("target " + shard + ": an ownership check needs both the shard-key columns"
                    + " and the predicate");
        }
    }

    /** A target without an ownership check. */
    public static DiffTarget of(String shard, TableChecksum checksum) {
        return new DiffTarget(shard, checksum, List.of(), Optional.empty());
    }

    /** This target, also checked to hold only rows whose {@code columns} satisfy {@code owns}. */
    public DiffTarget owning(List<String> columns, Predicate<Object[]> owns) {
        return new DiffTarget(shard, checksum, columns, Optional.of(requireNonNull(owns, "owns is null")));
    }
}
