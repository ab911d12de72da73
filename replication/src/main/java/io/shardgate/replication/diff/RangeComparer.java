package io.shardgate.replication.diff;

import io.shardgate.storage.checksum.ChecksumResult;
import io.shardgate.storage.checksum.PkRange;
import io.shardgate.storage.checksum.RowChecksum;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import static java.util.Objects.requireNonNull;

/**
 * Compares one primary-key range of the source with the union of the targets in one matched snapshot:
 * the source's checksum against the targets' combined (counts add, CRCs XOR). A range that differs is
 * split at the median key of the server holding most of its rows, and each half compared again, until
 * every server holds at most {@code narrowRows} of the range; then its rows are merge-compared
 * ({@link RowMerge}). Only the range at hand is ever in memory. Once the report cap is reached, a differing
 * range is no longer narrowed (which bounds the time a badly broken chunk takes), only counted.
 */
final class RangeComparer {
    /** A target read over several connections splits a range into this many parts per connection. */
    static final int PARTS_PER_LANE = 3;

    private final Snapshot snapshot;
    private final Parallel parallel;
    private final RowMerge merge;
    private final int narrowRows;
    private final Reports reports;
    private final DiffTimes times;

    RangeComparer(Snapshot snapshot, Parallel parallel, List<String> shards, int narrowRows, Reports reports,
            DiffTimes times) {
        this.snapshot = requireNonNull(snapshot, "snapshot is null");
        this.parallel = requireNonNull(parallel, "parallel is null");
        this.merge = new RowMerge(snapshot.keyOrder(), shards);
        this.narrowRows = narrowRows;
        this.reports = requireNonNull(reports, "reports is null");
        this.times = requireNonNull(times, "times is null");
    }

    /** Compares {@code range}, reporting every differing row; returns the source's row count in it. */
    long compare(PkRange range) throws SQLException {
        List<ChecksumResult> sums = checksums(range);
        if (differ(sums)) {
            narrow(range, sums);
        }
        return sums.get(0).rows();
    }

    /**
     * The source's checksum first, then each target's. A target with several connections in the snapshot reads the
     * range in {@link #PARTS_PER_LANE} parts per connection ({@link Lanes}): each connection takes the next part not yet
     * read until none is left, so a slow part does not leave the other connections idle; the parts combine.
     */
    private List<ChecksumResult> checksums(PkRange range) throws SQLException {
        List<Parallel.Read<ChecksumResult>> reads = new ArrayList<>();
        List<Integer> servers = new ArrayList<>();
        reads.add(timed(0, () -> snapshot.source().checksum(range)));
        servers.add(0);
        List<List<ServerReader>> lanes = snapshot.targetLanes();
        for (int i = 0; i < lanes.size(); i++) {
            List<ServerReader> target = lanes.get(i);
            Queue<PkRange> parts = new ConcurrentLinkedQueue<>(Lanes.split(range, target.size() * PARTS_PER_LANE,
                    snapshot.keyOrder()));
            for (ServerReader lane : target.subList(0, Math.min(target.size(), parts.size()))) {
                int server = i + 1;
                reads.add(() -> {
                    ChecksumResult sum = ChecksumResult.empty();
                    for (PkRange part = parts.poll(); part != null; part = parts.poll()) {
                        PkRange piece = part;
                        sum = sum.combine(timed(server, () -> lane.checksum(piece)).run());
                    }
                    return sum;
                });
                servers.add(server);
            }
        }
        List<ChecksumResult> results = parallel.all(reads);
        List<ChecksumResult> sums = new ArrayList<>();
        for (int server = 0; server <= lanes.size(); server++) {
            sums.add(ChecksumResult.empty());
        }
        for (int read = 0; read < results.size(); read++) {
            int server = servers.get(read);
            sums.set(server, sums.get(server).combine(results.get(read)));
        }
        return sums;
    }

    /** Whether the source's checksum differs from the union of the targets'. */
    static boolean differ(List<ChecksumResult> sums) {
        ChecksumResult union = ChecksumResult.empty();
        for (ChecksumResult target : sums.subList(1, sums.size())) {
            union = union.combine(target);
        }
        return !union.equals(sums.get(0));
    }

    private void narrow(PkRange range, List<ChecksumResult> sums) throws SQLException {
        if (reports.full()) {
            // Nothing more would be reported: count the range by its row counts instead of reading its rows.
            long targets = sums.subList(1, sums.size()).stream().mapToLong(ChecksumResult::rows).sum();
            reports.countRange(Math.max(1, Math.abs(sums.get(0).rows() - targets)));
            return;
        }
        int widest = 0;
        for (int i = 1; i < sums.size(); i++) {
            if (sums.get(i).rows() > sums.get(widest).rows()) {
                widest = i;
            }
        }
        long most = sums.get(widest).rows();
        if (most <= narrowRows) {
            compareRows(range);
            return;
        }
        ServerReader reader = widest == 0 ? snapshot.source() : snapshot.targets().get(widest - 1);
        Optional<List<Object>> middle = reader.keyAt(range, most / 2);
        if (middle.isEmpty()) {
            throw new IllegalStateException("a server counted " + most + " rows in a range but has no row " + most / 2
                    + " in it: its snapshot changed under the diff");
        }
        for (PkRange half : List.of(new PkRange(range.lowerInclusive(), middle.get()),
                new PkRange(middle.get(), range.upperExclusive()))) {
            List<ChecksumResult> halfSums = checksums(half);
            if (differ(halfSums)) {
                narrow(half, halfSums);
            }
        }
    }

    private void compareRows(PkRange range) throws SQLException {
        List<Parallel.Read<List<RowChecksum>>> reads = new ArrayList<>();
        reads.add(timed(0, () -> snapshot.source().rows(range)));
        for (int i = 0; i < snapshot.targets().size(); i++) {
            ServerReader target = snapshot.targets().get(i);
            reads.add(timed(i + 1, () -> target.rows(range)));
        }
        List<List<RowChecksum>> rows = parallel.all(reads);
        merge.compare(rows.get(0), rows.subList(1, rows.size()), reports::report);
    }

    /** {@code read} on server {@code server} (0: the source), its time counted in {@link DiffTimes}. */
    private <T> Parallel.Read<T> timed(int server, Parallel.Read<T> read) {
        return () -> {
            long started = times.now();
            try {
                return read.run();
            } finally {
                times.served(server, started);
            }
        };
    }
}
