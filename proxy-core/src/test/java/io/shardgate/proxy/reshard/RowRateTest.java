package io.shardgate.proxy.reshard;

import io.shardgate.replication.diff.DiffOptions;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** A job's max_rows_per_second: rows read against the time since the first look, on a hand-set clock. */
class RowRateTest {
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final AtomicLong rows = new AtomicLong(7_000); // a resumed copy: rows copied before this runner count for nothing

    @Test
    void rowsAheadOfTheRateAreAReasonUntilTheClockCatchesUp() {
        RowRate rate = new RowRate(1_000, nanos::get);
        rate.count(rows::get);
        assertThat(rate.reason()).as("the first look is the baseline").isEmpty();
        rows.addAndGet(500);
        nanos.addAndGet(400_000_000L);
        assertThat(rate.reason()).contains("max_rows_per_second 1000");
        nanos.addAndGet(100_000_000L);
        assertThat(rate.reason()).isEmpty();
    }

    @Test
    void awaitSleepsOnlyWhileAhead() throws InterruptedException {
        RowRate rate = new RowRate(1_000_000, System::nanoTime);
        rate.count(rows::get);
        rate.reason();
        rows.addAndGet(20_000); // 20 ms' worth
        long started = System.nanoTime();
        rate.await();
        assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(10_000_000L);
        assertThat(rate.reason()).isEmpty();
    }

    @Test
    void zeroIsNoLimit() {
        RowRate rate = new RowRate(0, nanos::get);
        rate.count(rows::get);
        rate.reason();
        rows.addAndGet(1_000_000_000L);
        assertThat(rate.limited()).isFalse();
        assertThat(rate.reason()).isEmpty();
    }

    @Test
    void aLimitedDiffComparesAtMostHalfASecondsRowsAChunk() {
        assertThat(ReshardDiff.options(0)).isEqualTo(DiffOptions.defaults().withSnapshotHold(ReshardDiff.SNAPSHOT_HOLD));
        DiffOptions slow = ReshardDiff.options(2_000);
        assertThat(slow.maxChunkRows()).isEqualTo(1_000);
        assertThat(slow.firstChunkRows()).isEqualTo(1_000);
        assertThat(ReshardDiff.options(100).minChunkRows()).isEqualTo(50);
        var copy = CopyThrottle.settings(io.shardgate.replication.copy.CopySettings.defaults(), 2_000);
        assertThat(copy.maxChunk()).isEqualTo(1_000);
        assertThat(copy.throttlePause()).isEqualTo(java.time.Duration.ofMillis(200));
        assertThat(CopyThrottle.settings(io.shardgate.replication.copy.CopySettings.defaults(), 0))
                .isEqualTo(io.shardgate.replication.copy.CopySettings.defaults());
    }
}
