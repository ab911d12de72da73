package io.shardgate.replication.diff;

import io.shardgate.storage.checksum.PkRange;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Checks that every row of a range on each target with an ownership predicate belongs there: reads only the
 * primary key and the shard-key columns of the target's rows (streamed, one row at a time) and reports a row
 * whose shard-key values the predicate rejects as {@link Mismatch.Kind#NOT_OWNED}. Costs one more read of
 * the range's key columns per checked target.
 */
final class OwnershipCheck {
    private final List<DiffTarget> targets;
    private final Parallel parallel;
    private final Reports reports;

    OwnershipCheck(List<DiffTarget> targets, Parallel parallel, Reports reports) {
        this.targets = List.copyOf(requireNonNull(targets, "targets is null"));
        this.parallel = requireNonNull(parallel, "parallel is null");
        this.reports = requireNonNull(reports, "reports is null");
    }

    boolean enabled() {
        return targets.stream().anyMatch(target -> target.owns().isPresent());
    }

    void check(Snapshot snapshot, PkRange range) throws SQLException {
        int keyColumns = snapshot.keyOrder().size();
        List<Parallel.Read<Void>> reads = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            DiffTarget target = targets.get(i);
            ServerReader reader = snapshot.targets().get(i);
            target.owns().ifPresent(owns -> reads.add(() -> {
                reader.keyColumns(range, target.shardKeyColumns(), row -> {
                    Object[] shardKey = row.subList(keyColumns, row.size()).toArray();
                    if (!owns.test(shardKey)) {
                        reports.report(new Mismatch(Mismatch.Kind.NOT_OWNED, row.subList(0, keyColumns), target.shard()));
                    }
                });
                return null;
            }));
        }
        parallel.all(reads);
    }
}
