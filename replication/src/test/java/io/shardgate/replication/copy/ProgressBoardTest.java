package io.shardgate.replication.copy;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressBoardTest {

    /** A clock the test moves. */
    private static final class ManualClock extends Clock {
        private long millis;

        void advance(Duration by) {
            millis += by.toMillis();
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }
    }

    @Test
    void rateAndEtaCountOnlyTimeSpentCopying() {
        ManualClock clock = new ManualClock();
        ProgressBoard board = new ProgressBoard(clock);
        board.table(new CopyCheckpoint("shop.a", List.of(), "", 0, 10_000, false));
        board.phase(CopyProgress.Phase.COPYING);
        clock.advance(Duration.ofSeconds(2));
        board.copied(2_000);
        board.table(new CopyCheckpoint("shop.a", List.of(new PkValue(KeyColumn.Kind.INTEGER, "2000")), "0-1-5", 2_000,
                10_000, false));
        board.phase(CopyProgress.Phase.CATCHING_UP);
        clock.advance(Duration.ofSeconds(10)); // a catch-up: not copying time
        board.throttled("replica r1 lags 2 s > 1 s");

        CopyProgress progress = board.snapshot();
        assertThat(progress.phase()).isEqualTo(CopyProgress.Phase.CATCHING_UP);
        assertThat(progress.rowsPerSecond()).isEqualTo(1_000.0);
        assertThat(progress.eta()).hasValue(Duration.ofSeconds(8));
        assertThat(progress.throttled()).isEqualTo("throttled: replica r1 lags 2 s > 1 s");
        assertThat(progress.tables()).containsExactly(new CopyProgress.TableProgress("shop.a", 2_000, 10_000, false));
        assertThat(progress.streamLagSeconds()).isZero();

        board.throttled("");
        board.failed("boom");
        assertThat(board.snapshot().throttled()).isEmpty();
        assertThat(board.snapshot().phase()).isEqualTo(CopyProgress.Phase.FAILED);
        assertThat(board.snapshot().error()).isEqualTo("boom");
    }

    @Test
    void noRateNoEta() {
        ProgressBoard board = new ProgressBoard(new ManualClock());
        assertThat(board.snapshot().eta()).isEmpty();
        assertThat(board.snapshot().phase()).isEqualTo(CopyProgress.Phase.PREPARING);
    }

    @Test
    void streamLagShowsWhileStreaming() {
        ProgressBoard board = new ProgressBoard(new ManualClock());
        board.streamLag(() -> 0.7);
        assertThat(board.snapshot().streamLagSeconds()).isZero();
        board.phase(CopyProgress.Phase.STREAMING);
        assertThat(board.snapshot().streamLagSeconds()).isEqualTo(0.7);
    }

    @Test
    void timesEachCatchUpBetweenChunks() {
        ManualClock clock = new ManualClock();
        CopyTimings timings = new CopyTimings();
        ProgressBoard board = new ProgressBoard(clock, timings);
        board.phase(CopyProgress.Phase.COPYING);
        clock.advance(Duration.ofSeconds(5));
        board.phase(CopyProgress.Phase.CATCHING_UP);
        clock.advance(Duration.ofMillis(1_400));
        board.phase(CopyProgress.Phase.COPYING);
        clock.advance(Duration.ofSeconds(5));
        board.phase(CopyProgress.Phase.CATCHING_UP);
        clock.advance(Duration.ofSeconds(3));
        board.phase(CopyProgress.Phase.STREAMING);

        assertThat(timings.count("catch-up")).isEqualTo(1);
        assertThat(timings.nanos("catch-up")).isEqualTo(1_400_000_000L);
    }
}
