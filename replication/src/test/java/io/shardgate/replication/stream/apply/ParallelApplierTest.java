package io.shardgate.replication.stream.apply;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.stream.Change;
import io.shardgate.replication.stream.Column;
import io.shardgate.replication.stream.ColumnKind;
import io.shardgate.replication.stream.DdlChange;
import io.shardgate.replication.stream.RowChange;
import io.shardgate.replication.stream.RowFilter;
import io.shardgate.replication.stream.StreamException;
import io.shardgate.replication.stream.TableSchema;
import io.shardgate.replication.stream.Transaction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ParallelApplierTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private ParallelApplier applier;

    @AfterEach
    void close() {
        if (applier != null) {
            applier.close();
        }
    }

    private ParallelApplier start(FakeTarget target, int workers, RowFilter filter) {
        applier = new ParallelApplier(target, new ParallelApplier.Settings(workers, 20, 1000, 100, 3, 1, 50), filter,
                registry, Clock.systemUTC());
        applier.start();
        return applier;
    }

    private static RowChange row(String schema, long id) {
        TableSchema table = new TableSchema(schema, "t", List.of(new Column("id", ColumnKind.BIGINT, false, null)), List.of(0));
        return new RowChange(table, RowChange.Kind.INSERT, null, new Object[]{id});
    }

    private static Transaction rows(long seq, String... schemas) {
        List<Change> changes = new ArrayList<>();
        for (String schema : schemas) {
            changes.add(row(schema, seq));
        }
        return new Transaction(new MariaDbGtid(0, 1, seq), 0, changes);
    }

    private static Transaction ddl(long seq, String schema, boolean global) {
        return new Transaction(new MariaDbGtid(0, 1, seq), 0,
                List.of(new DdlChange(schema, "ALTER TABLE t ADD x INT", Set.of(schema), global)));
    }

    @Test
    void aProgressReportBeforeStartSeesNothingApplied() {
        // The stream command's progress thread may ask before start() has read the target's positions.
        applier = new ParallelApplier(new FakeTarget(AppliedPositions.none()),
                new ParallelApplier.Settings(1, 20, 1000, 100, 3, 1, 50), RowFilter.KEEP_ALL, registry, Clock.systemUTC());
        assertThat(applier.watermark().isEmpty()).isTrue();
    }

    @Test
    void eachSchemaSeesSourceOrderWhileBarriersRunAlone() throws Exception {
        FakeTarget target = new FakeTarget(AppliedPositions.none());
        start(target, 4, RowFilter.KEEP_ALL);
        Random random = new Random(42);
        Map<String, List<Long>> expected = new HashMap<>();
        for (long seq = 1; seq <= 600; seq++) {
            String schema = "s" + random.nextInt(6);
            Transaction transaction;
            if (seq % 97 == 0) {
                transaction = ddl(seq, schema, true);
            } else if (seq % 50 == 0) {
                transaction = ddl(seq, schema, false);
            } else if (seq % 10 == 0) {
                transaction = rows(seq, schema, "s" + ((random.nextInt(5) + 1 + schema.charAt(1) - '0') % 6));
            } else {
                transaction = rows(seq, schema);
            }
            for (String each : transaction.schemas()) {
                expected.computeIfAbsent(each, s -> new ArrayList<>()).add(seq);
            }
            applier.submit(transaction);
        }
        applier.awaitIdle();

        assertThat(target.violations).isEmpty();
        for (Map.Entry<String, List<Long>> entry : expected.entrySet()) {
            assertThat(target.applied(entry.getKey())).as(entry.getKey()).containsExactlyElementsOf(entry.getValue());
        }
        assertThat(applier.watermark()).isEqualTo(MariaDbGtidPosition.parse("0-1-600"));
        assertThat(registry.counter("shardgate.stream.transactions.applied").count()).isEqualTo(600);
        assertThat(registry.find("shardgate.stream.queue.depth").gauges()).hasSize(4);
    }

    @Test
    void consecutiveTransactionsOfABusyWorkerAreGrouped() throws Exception {
        FakeTarget target = new FakeTarget(AppliedPositions.none());
        CountDownLatch release = new CountDownLatch(1);
        target.holdFirstBatch = release;
        start(target, 1, RowFilter.KEEP_ALL);
        for (long seq = 1; seq <= 11; seq++) {
            applier.submit(rows(seq, "a"));
        }
        release.countDown();
        applier.awaitIdle();

        assertThat(target.applied("a")).hasSize(11);
        assertThat(target.batchSizes).hasSizeLessThan(11).anyMatch(size -> size > 1);
        assertThat(target.batchSizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(11);
    }

    @Test
    void whatTheTargetAlreadyAppliedIsSkippedPerSchema() throws Exception {
        FakeTarget target = new FakeTarget(new AppliedPositions(Map.of("a", MariaDbGtidPosition.parse("0-1-5")),
                MariaDbGtidPosition.parse("0-1-2")));
        start(target, 2, RowFilter.KEEP_ALL);
        for (long seq = 3; seq <= 8; seq++) {
            applier.submit(seq % 2 == 0 ? rows(seq, "a", "b") : rows(seq, "a"));
        }
        applier.awaitIdle();

        assertThat(target.applied("a")).containsExactly(6L, 7L, 8L);
        assertThat(target.applied("b")).containsExactly(4L, 6L, 8L);
        assertThat(applier.watermark()).hasToString("0-1-8");
    }

    @Test
    void theRowFilterDropsRowsAndTheirGtidStillCompletes() throws Exception {
        FakeTarget target = new FakeTarget(AppliedPositions.none());
        start(target, 2, row -> ((Long) row.after()[0]) % 2 == 0);
        for (long seq = 1; seq <= 6; seq++) {
            applier.submit(rows(seq, "a"));
        }
        applier.awaitIdle();

        assertThat(target.applied("a")).containsExactly(2L, 4L, 6L);
        assertThat(applier.watermark()).hasToString("0-1-6");
    }

    @Test
    void aRowThatCannotBeAppliedStopsTheStreamNamingIt() throws Exception {
        FakeTarget target = new FakeTarget(AppliedPositions.none());
        target.failOn.add(3L);
        start(target, 1, RowFilter.KEEP_ALL);
        applier.submit(rows(1, "a"));
        applier.submit(rows(2, "a"));
        applier.awaitIdle();
        applier.submit(rows(3, "a"));

        assertThatThrownBy(() -> applier.awaitIdle()).isInstanceOf(StreamException.class)
                .hasMessageContaining("0-1-3").hasMessageContaining("a.t").hasMessageContaining("id=3");
        assertThatThrownBy(() -> applier.submit(rows(5, "a"))).hasMessageContaining("0-1-3");
        assertThat(applier.watermark()).hasToString("0-1-2");
        assertThat(target.applied("a")).containsExactly(1L, 2L);
    }

    @Test
    void aFailingGroupIsAppliedOneByOneSoTheTransactionsBeforeTheBadOneLand() throws Exception {
        FakeTarget target = new FakeTarget(AppliedPositions.none());
        target.failOn.add(4L);
        CountDownLatch release = new CountDownLatch(1);
        target.holdFirstBatch = release;
        start(target, 1, RowFilter.KEEP_ALL);
        for (long seq = 1; seq <= 6; seq++) {
            applier.submit(rows(seq, "a"));
        }
        release.countDown();

        assertThatThrownBy(() -> applier.awaitIdle()).hasMessageContaining("0-1-4");
        assertThat(target.applied("a")).containsExactly(1L, 2L, 3L);
        assertThat(applier.watermark()).hasToString("0-1-3");
    }

    @Test
    void retryableErrorsAreRetriedAndCounted() throws Exception {
        FakeTarget target = new FakeTarget(AppliedPositions.none());
        target.failOnceRetryably.add(2L);
        start(target, 1, RowFilter.KEEP_ALL);
        applier.submit(rows(1, "a"));
        applier.submit(rows(2, "a", "b"));
        applier.submit(rows(3, "b"));
        applier.awaitIdle();

        assertThat(target.applied("a")).containsExactly(1L, 2L);
        assertThat(target.applied("b")).containsExactly(2L, 3L);
        assertThat(registry.find("shardgate.stream.retries").tag("kind", "apply").counter().count()).isEqualTo(1);
    }

    @Test
    void closeSavesTheWatermark() throws Exception {
        FakeTarget target = new FakeTarget(AppliedPositions.none());
        start(target, 2, RowFilter.KEEP_ALL);
        applier.submit(rows(1, "a"));
        applier.submit(rows(2, "b"));
        applier.awaitIdle();
        applier.close();
        applier = null;

        assertThat(target.savedWatermark).hasToString("0-1-2");
    }
    @Test
    void aStreamGoingOnFromASnapshotSkipsWhatItHoldsButAppliesAnXaPreparedBeforeAndCommittedAfter() throws Exception {
        FakeTarget target = new FakeTarget(new AppliedPositions(Map.of("a", MariaDbGtidPosition.parse("0-1-2")),
                MariaDbGtidPosition.parse("0-1-9"), MariaDbGtidPosition.parse("0-1-3")));
        applier = new ParallelApplier(target, new ParallelApplier.Settings(2, 20, 1000, 100, 3, 1, 50), RowFilter.KEEP_ALL,
                registry, Clock.systemUTC());
        // Read from 0-1-4 (the lookback), the snapshot at 0-1-7: 5 and 6 are in it; XA prepared at 5, committed at 8.
        applier.start(MariaDbGtidPosition.parse("0-1-4"), MariaDbGtidPosition.parse("0-1-7"));
        assertThat(target.savedFloor).as("the floor is stored before anything is read").hasToString("0-1-7");
        assertThat(applier.watermark()).as("the watermark starts where the stream reads").hasToString("0-1-4");
        applier.submit(Transaction.xaPrepare(new MariaDbGtid(0, 1, 5), 0));
        applier.submit(rows(6, "a", "b"));
        applier.submit(rows(7, "a"));
        assertThat(applier.watermark()).as("held before the prepare").hasToString("0-1-4");
        applier.submit(Transaction.xaCompletion(new MariaDbGtid(0, 1, 8), 0, List.of(row("a", 5)),
                new MariaDbGtid(0, 1, 5)));
        applier.submit(rows(9, "b"));
        applier.awaitIdle();

        assertThat(target.applied("a")).containsExactly(8L);
        assertThat(target.applied("b")).containsExactly(9L);
        assertThat(applier.watermark()).hasToString("0-1-9");
    }

    @Test
    void aFloorIsNeverLowered() {
        AppliedPositions positions = new AppliedPositions(Map.of(), MariaDbGtidPosition.empty(),
                MariaDbGtidPosition.parse("0-1-7,1-2-3"));
        AppliedPositions raised = positions.withFloor(MariaDbGtidPosition.parse("0-1-5,1-2-4,2-3-1"));

        assertThat(raised.floor()).isEqualTo(MariaDbGtidPosition.parse("0-1-7,1-2-4,2-3-1"));
        assertThat(raised.isApplied("any", new MariaDbGtid(0, 1, 7))).isTrue();
        assertThat(raised.isApplied("any", new MariaDbGtid(0, 1, 8))).isFalse();
        assertThat(raised.isApplied("any", new MariaDbGtid(3, 1, 1))).isFalse();
    }
}
