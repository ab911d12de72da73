package io.shardgate.replication.diff;

import io.shardgate.storage.checksum.TableChecksum;
import io.shardgate.storage.checksum.TableName;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The diff loop over in-memory servers: 10,000 integer keys on the source, split at 5,000 over two
 * targets, in chunks of 1,000 rows narrowed to 50.
 */
class TableDiffTest {
    private static final TableName TABLE = TableName.parse("shop.orders");
    private static final int ROWS = 10_000;
    private static final DiffOptions OPTIONS = DiffOptions.defaults().withChunkRows(1_000, 100, 1_000).withNarrowRows(50);

    private final FakeServer source = new FakeServer(KeyOrderTest.INTEGER);
    private final FakeServer t1 = new FakeServer(KeyOrderTest.INTEGER);
    private final FakeServer t2 = new FakeServer(KeyOrderTest.INTEGER);
    private final FakeSnapshots snapshots = new FakeSnapshots(KeyOrderTest.INTEGER, source, List.of(t1, t2));
    private final Recorder recorder = new Recorder();

    TableDiffTest() {
        for (long id = 1; id <= ROWS; id++) {
            source.put(List.of(id), "row " + id);
            (id <= ROWS / 2 ? t1 : t2).put(List.of(id), "row " + id);
        }
    }

    /** Keeps what the diff reports; optionally fails on the n-th checkpoint, as a crash would. */
    static final class Recorder implements DiffSink {
        final List<String> mismatches = new ArrayList<>();
        final List<DiffCheckpoint> checkpoints = new ArrayList<>();
        int failOnCheckpoint = -1;

        @Override
        public void mismatch(Mismatch mismatch) {
            mismatches.add(mismatch.toString());
        }

        @Override
        public void checkpoint(DiffCheckpoint checkpoint) {
            checkpoints.add(checkpoint);
            if (checkpoints.size() == failOnCheckpoint) {
                throw new IllegalStateException("crash after checkpoint " + failOnCheckpoint);
            }
        }
    }

    private TableDiff diff(List<DiffTarget> targets, DiffOptions options, LongSupplier clock) {
        return new TableDiff(TABLE, snapshots, targets, options, clock);
    }

    private TableDiff diff() {
        return diff(List.of(DiffTarget.of("t1", new TableChecksum()), DiffTarget.of("t2", new TableChecksum())), OPTIONS,
                () -> 0);
    }

    @Test
    void aCleanTableReportsNothing() throws SQLException {
        DiffCheckpoint end = diff().run(recorder);
        assertThat(end.finished()).isTrue();
        assertThat(end.clean()).isTrue();
        assertThat(end.rowsCompared()).isEqualTo(ROWS);
        assertThat(end.chunksDone()).isEqualTo(10);
        assertThat(end.chunksTotalEstimate()).isEqualTo(10);
        assertThat(recorder.mismatches).isEmpty();
        assertThat(recorder.checkpoints).hasSize(10);
        assertThat(recorder.checkpoints.get(0).comparedBelow()).containsExactly(1001L);
        assertThat(recorder.checkpoints.get(0).chunksTotalEstimate()).isEqualTo(10);
        assertThat(source.rowReads + t1.rowReads + t2.rowReads).as("no row was read").isZero();
        assertThat(snapshots.open).as("every snapshot closed").isZero();
    }

    @Test
    void eachDifferenceIsReportedExactlyAndOnlyItsRowsAreRead() throws SQLException {
        t1.remove(List.of(1234L));
        t1.put(List.of(4321L), "changed");
        t2.put(List.of(20_000L), "extra");
        t1.put(List.of(7777L), "row 7777");
        DiffCheckpoint end = diff().run(recorder);
        // 7777 is on both targets, identical: the first target's copy is taken as the row, the other is extra.
        assertThat(recorder.mismatches).containsExactly(
                "MISSING_ON_TARGET (1234)",
                "DIFFERENT (4321) on t1",
                "EXTRA_ON_TARGET (7777) on t2",
                "EXTRA_ON_TARGET (20000) on t2");
        assertThat(end.mismatches()).isEqualTo(4);
        assertThat(end.clean()).isFalse();
        assertThat(source.rowsRead).as("narrowed to ranges of at most 50 rows").isLessThanOrEqualTo(4 * 50);
    }

    @Test
    void targetsWithSeveralConnectionsReadEachChunkInPartsAndFindTheSameDifferences() throws SQLException {
        snapshots.lanes = 2;
        t1.remove(List.of(1234L));
        t2.put(List.of(5800L), "changed");
        DiffCheckpoint end = diff().run(recorder);
        assertThat(recorder.mismatches).containsExactly("MISSING_ON_TARGET (1234)", "DIFFERENT (5800) on t2");
        assertThat(end.rowsCompared()).isEqualTo(ROWS);
        assertThat(end.finished()).isTrue();
        // Which connection reads which part is a race; that ten chunks of two targets were read in parts is not.
        assertThat(snapshots.laneChecksums.get(0) + snapshots.laneChecksums.get(1)).as("chunks read in parts")
                .isGreaterThan(2 * 10 * 2);
    }

    @Test
    void aResumedDiffComparesOnlyTheRest() throws SQLException {
        t1.remove(List.of(1500L));
        t2.remove(List.of(8500L));
        recorder.failOnCheckpoint = 4;
        assertThatThrownBy(() -> diff().run(recorder)).hasMessage("crash after checkpoint 4");
        DiffCheckpoint saved = recorder.checkpoints.get(3);
        assertThat(saved.comparedBelow()).containsExactly(4001L);
        assertThat(saved.rowsCompared()).isEqualTo(4000);
        assertThat(saved.mismatches()).isEqualTo(1);
        int sourceChecksums = source.checksums;

        recorder.failOnCheckpoint = -1;
        DiffCheckpoint end = diff().run(saved, recorder);
        assertThat(source.checksums - sourceChecksums).as("six chunks, one narrowed twice per level").isGreaterThanOrEqualTo(6)
                .isLessThan(6 + 2 * 6);
        assertThat(recorder.checkpoints).hasSize(4 + 6);
        assertThat(end.chunksDone()).isEqualTo(10);
        assertThat(end.rowsCompared()).isEqualTo(ROWS);
        assertThat(end.mismatches()).isEqualTo(2);
        assertThat(recorder.mismatches).containsExactly("MISSING_ON_TARGET (1500)", "MISSING_ON_TARGET (8500)");
        assertThat(diff().run(end, recorder)).as("a finished diff does nothing").isSameAs(end);
        assertThatThrownBy(() -> diff().run(DiffCheckpoint.start(TableName.parse("shop.other")), recorder))
                .hasMessage("a checkpoint of shop.other cannot resume a diff of shop.orders");
    }

    @Test
    void reportsAreCappedButAllAreCounted() throws SQLException {
        for (long id = 101; id <= 110; id++) {
            t1.remove(List.of(id));
        }
        DiffCheckpoint end = diff(List.of(DiffTarget.of("t1", new TableChecksum()), DiffTarget.of("t2", new TableChecksum())),
                OPTIONS.withMaxReported(3), () -> 0).run(recorder);
        assertThat(recorder.mismatches).containsExactly("MISSING_ON_TARGET (101)", "MISSING_ON_TARGET (102)",
                "MISSING_ON_TARGET (103)");
        assertThat(end.mismatches()).isEqualTo(10);
    }

    @Test
    void pastTheCapDifferingRangesAreCountedWithoutReadingTheirRows() throws SQLException {
        for (long id = 2_001; id <= 3_000; id++) {
            t1.remove(List.of(id));
        }
        t2.put(List.of(7_777L), "changed");
        DiffCheckpoint end = diff(List.of(DiffTarget.of("t1", new TableChecksum()), DiffTarget.of("t2", new TableChecksum())),
                OPTIONS.withMaxReported(0), () -> 0).run(recorder);
        assertThat(recorder.mismatches).isEmpty();
        assertThat(source.rowReads + t1.rowReads + t2.rowReads).isZero();
        assertThat(end.mismatches()).as("1,000 rows missing, one range of equal counts").isEqualTo(1_001);
    }

    @Test
    void snapshotsAreReopenedOnceOlderThanTheHold() throws SQLException {
        long[] now = {0};
        LongSupplier clock = () -> now[0] += 300_000_000L; // every reading of the clock is 0.3 s later
        diff(List.of(DiffTarget.of("t1", new TableChecksum()), DiffTarget.of("t2", new TableChecksum())), OPTIONS, clock)
                .run(recorder);
        // Three clock readings per chunk: a 2 s hold lasts three chunks.
        assertThat(snapshots.opened).isBetween(3, 5);
        assertThat(snapshots.open).isZero();
    }

    @Test
    void ownershipFindsARowOnTheWrongTarget() throws SQLException {
        t2.remove(List.of(6000L));
        t1.put(List.of(6000L), "row 6000");
        DiffTarget lower = DiffTarget.of("t1", new TableChecksum())
                .owning(List.of("id"), key -> ((Long) key[0]) <= ROWS / 2);
        DiffTarget upper = DiffTarget.of("t2", new TableChecksum())
                .owning(List.of("id"), key -> ((Long) key[0]) > ROWS / 2);
        DiffCheckpoint end = diff(List.of(lower, upper), OPTIONS, () -> 0).run(recorder);
        assertThat(recorder.mismatches).containsExactly("NOT_OWNED (6000) on t1");
        assertThat(end.mismatches()).isEqualTo(1);
        assertThatThrownBy(() -> new DiffTarget("t", new TableChecksum(), List.of("id"), Optional.empty()))
                .hasMessage("target t: an ownership check needs both the shard-key columns and the predicate");
    }

    @Test
    void sparseIntegerKeysLearnTheirDensity() throws SQLException {
        FakeServer sparse = new FakeServer(KeyOrderTest.INTEGER);
        FakeServer low = new FakeServer(KeyOrderTest.INTEGER);
        FakeServer high = new FakeServer(KeyOrderTest.INTEGER);
        for (long id = 100; id <= 1_000_000; id += 100) {
            sparse.put(List.of(id), "row " + id);
            (id <= 500_000 ? low : high).put(List.of(id), "row " + id);
        }
        high.remove(List.of(777_700L));
        FakeSnapshots sparseSnapshots = new FakeSnapshots(KeyOrderTest.INTEGER, sparse, List.of(low, high));
        DiffCheckpoint end = new TableDiff(TABLE, sparseSnapshots, List.of(DiffTarget.of("low", new TableChecksum()),
                DiffTarget.of("high", new TableChecksum())), OPTIONS, () -> 0).run(recorder);
        assertThat(end.rowsCompared()).isEqualTo(10_000);
        assertThat(recorder.mismatches).containsExactly("MISSING_ON_TARGET (777700)");
        // The first chunk plans 1,000 keys and finds 10 rows; from then on 100 keys per row.
        assertThat(recorder.checkpoints.get(0).comparedBelow()).containsExactly(1_100L);
        assertThat(recorder.checkpoints.get(0).rowsCompared()).isEqualTo(10);
        assertThat(recorder.checkpoints.get(1).rowsCompared() - 10).isEqualTo(1_000);
        assertThat(end.chunksDone()).isBetween(10L, 12L);
    }

    @Test
    void aGapInIntegerKeysCostsNoChunkWithoutRows() throws SQLException {
        FakeServer gapped = new FakeServer(KeyOrderTest.INTEGER);
        FakeServer low = new FakeServer(KeyOrderTest.INTEGER);
        FakeServer high = new FakeServer(KeyOrderTest.INTEGER);
        for (long id = 1; id <= 2_000; id++) {
            for (long key : List.of(id, 1_000_000_000L + id)) {
                gapped.put(List.of(key), "row " + key);
                (key <= 2_000 ? low : high).put(List.of(key), "row " + key);
            }
        }
        FakeSnapshots gappedSnapshots = new FakeSnapshots(KeyOrderTest.INTEGER, gapped, List.of(low, high));
        DiffCheckpoint end = new TableDiff(TABLE, gappedSnapshots, List.of(DiffTarget.of("low", new TableChecksum()),
                DiffTarget.of("high", new TableChecksum())), OPTIONS, () -> 0).run(recorder);
        assertThat(end.clean()).isTrue();
        assertThat(end.rowsCompared()).isEqualTo(4_000);
        assertThat(end.chunksDone()).as("1,000-row chunks, the gap skipped").isEqualTo(4);
        assertThat(recorder.checkpoints.get(2).comparedBelow()).containsExactly(1_000_001_001L);
    }

    @Test
    void aStringKeyIsWalkedInCollationOrder() throws SQLException {
        FakeServer names = new FakeServer(KeyOrderTest.GENERAL_CI);
        FakeServer first = new FakeServer(KeyOrderTest.GENERAL_CI);
        FakeServer second = new FakeServer(KeyOrderTest.GENERAL_CI);
        for (int i = 1; i <= 3_000; i++) {
            String key = String.format("%s%05d", i % 2 == 0 ? "K" : "k", i);
            names.put(List.of(key), "name " + i);
            // The targets store the other case: the same key under utf8mb4_general_ci.
            (i <= 1_500 ? first : second).put(List.of(key.toUpperCase().equals(key) ? key.toLowerCase() : key.toUpperCase()),
                    i == 2_222 ? "changed" : "name " + i);
        }
        FakeSnapshots nameSnapshots = new FakeSnapshots(KeyOrderTest.GENERAL_CI, names, List.of(first, second));
        DiffCheckpoint end = new TableDiff(TABLE, nameSnapshots, List.of(DiffTarget.of("t1", new TableChecksum()),
                DiffTarget.of("t2", new TableChecksum())), OPTIONS, () -> 0).run(recorder);
        assertThat(recorder.mismatches).containsExactly("DIFFERENT (K02222) on t2");
        assertThat(recorder.checkpoints.get(0).comparedBelow()).containsExactly("k01001");
        assertThat(end.chunksDone()).isEqualTo(3);
        assertThat(end.rowsCompared()).isEqualTo(3_000);
    }

    @Test
    void theProgressEstimateUsesTheCurrentChunkSize() {
        DiffCheckpoint start = DiffCheckpoint.start(TABLE);
        DiffCheckpoint first = TableDiff.next(start, Optional.of(List.<Object>of(1001L)), 1000, 0, 10_000, 3_000);
        assertThat(first).isEqualTo(new DiffCheckpoint(TABLE, List.of(1001L), false, 1, 4, 1000, 0));
        DiffCheckpoint last = TableDiff.next(first, Optional.empty(), 500, 2, 10_000, 3_000);
        assertThat(last).isEqualTo(new DiffCheckpoint(TABLE, List.of(1001L), true, 2, 2, 1500, 2));
    }
}
