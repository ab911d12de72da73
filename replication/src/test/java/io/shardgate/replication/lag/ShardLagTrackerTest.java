package io.shardgate.replication.lag;

import io.shardgate.replication.gtid.MariaDbGtidPosition;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The bookkeeping the pollers feed, driven by hand with times in milliseconds. */
class ShardLagTrackerTest {
    private static final MonitoredServer R1 = new MonitoredServer("10.0.0.2", 3306);
    private static final MonitoredServer R2 = new MonitoredServer("10.0.0.3", 3306);
    private static final ReplicationStatus RUNNING = new ReplicationStatus(ReplicaState.HEALTHY, true, true, "");

    private final ShardLagTracker tracker = new ShardLagTracker("s0", List.of(R1, R2), LagMonitorSettings.defaults());

    private static long ms(long millis) {
        return millis * 1_000_000;
    }

    private static MariaDbGtidPosition pos(String text) {
        return MariaDbGtidPosition.parse(text);
    }

    @Test
    void unpolledReplicasAreUnknownAndInfinitelyStale() {
        tracker.primaryPolled(ms(0), pos("0-1-10"));

        ReplicaLag lag = tracker.status(R1, ms(10));
        assertThat(lag.state()).isEqualTo(ReplicaState.UNKNOWN);
        assertThat(lag.isInfinitelyStale()).isTrue();
        assertThat(lag.fitsLagBudget(Long.MAX_VALUE)).isFalse();
        assertThat(lag.sinceLastPollMillis()).isEmpty();
        assertThat(lag.samples()).isZero();
    }

    @Test
    void aReplicaPolledBeforeThePrimaryBecomesMeasurableWhenThePrimaryIsPolled() {
        tracker.replicaPolled(R1, ms(0), pos("0-1-10"), RUNNING);
        assertThat(tracker.status(R1, ms(5)).isInfinitelyStale()).isTrue();

        tracker.primaryPolled(ms(10), pos("0-1-10"));

        ReplicaLag lag = tracker.status(R1, ms(20));
        assertThat(lag.lagMillis()).hasValue(0);
        assertThat(lag.fitsLagBudget(0)).isTrue();
        assertThat(lag.sinceLastPollMillis()).hasValue(20);
        assertThat(lag.appliedPosition()).isEqualTo(pos("0-1-10"));
        assertThat(tracker.primaryPosition()).isEqualTo(pos("0-1-10"));
    }

    @Test
    void aStoppedReplicaKeepsItsGtidLagAndShowsItsState() {
        ReplicationStatus stopped = new ReplicationStatus(ReplicaState.SQL_THREAD_STOPPED, true, false, "");
        tracker.primaryPolled(ms(0), pos("0-1-10"));
        tracker.replicaPolled(R1, ms(10), pos("0-1-10"), stopped);
        tracker.primaryPolled(ms(50), pos("0-1-10"));

        assertThat(tracker.status(R1, ms(60)).lagMillis()).as("caught up with an idle primary").hasValue(0);

        tracker.primaryPolled(ms(100), pos("0-1-11"));
        tracker.replicaPolled(R1, ms(110), pos("0-1-10"), stopped);
        ReplicaLag lag = tracker.status(R1, ms(560));
        assertThat(lag.lagMillis()).hasValue(510);
        assertThat(lag.state()).isEqualTo(ReplicaState.SQL_THREAD_STOPPED);
        assertThat(lag.sqlThreadRunning()).isFalse();
        assertThat(lag.ioThreadRunning()).isTrue();
    }

    @Test
    void aFailedPollMakesTheReplicaInfinitelyStaleButKeepsItsPosition() {
        tracker.primaryPolled(ms(0), pos("0-1-10"));
        tracker.replicaPolled(R1, ms(10), pos("0-1-10"), RUNNING);
        tracker.replicaFailed(R1, ReplicaState.UNREACHABLE, "Socket fail to connect");

        ReplicaLag lag = tracker.status(R1, ms(20));
        assertThat(lag.state()).isEqualTo(ReplicaState.UNREACHABLE);
        assertThat(lag.isInfinitelyStale()).isTrue();
        assertThat(lag.lastError()).isEqualTo("Socket fail to connect");
        assertThat(lag.appliedPosition()).isEqualTo(pos("0-1-10"));
        assertThat(lag.samples()).isEqualTo(1);

        tracker.replicaPolled(R1, ms(30), pos("0-1-10"), RUNNING);
        assertThat(tracker.status(R1, ms(40)).lagMillis()).hasValue(0);
        assertThat(tracker.status(R1, ms(40)).lastError()).isEmpty();
    }

    @Test
    void aReplicaWhosePollsStoppedArrivingIsInfinitelyStaleAfterTheLimit() {
        tracker.primaryPolled(ms(0), pos("0-1-10"));
        tracker.replicaPolled(R1, ms(0), pos("0-1-10"), RUNNING);
        for (long t = 50; t <= 2_000; t += 50) {
            tracker.primaryPolled(ms(t), pos("0-1-10"));
        }

        assertThat(tracker.status(R1, ms(650)).lagMillis()).hasValue(0);
        assertThat(tracker.status(R1, ms(651)).lagMillis()).as("its poll hangs").isEmpty();
        assertThat(tracker.status(R1, ms(651)).state()).as("no poll has failed yet").isEqualTo(ReplicaState.HEALTHY);
    }

    @Test
    void anObservedCommitEndsCaughtUpAtOnce() {
        tracker.primaryPolled(ms(0), pos("0-1-10"));
        tracker.replicaPolled(R1, ms(5), pos("0-1-10"), RUNNING);
        tracker.replicaPolled(R2, ms(5), pos("0-1-10"), RUNNING);

        tracker.primaryCommitted(ms(20), pos("0-1-11"));
        tracker.replicaPolled(R2, ms(25), pos("0-1-11"), RUNNING);

        assertThat(tracker.snapshot(ms(30))).extracting(ReplicaLag::lagMillis)
                .containsExactly(OptionalLong.of(30), OptionalLong.of(0));
        assertThat(tracker.primaryPosition()).isEqualTo(pos("0-1-11"));
    }

    @Test
    void primaryPollsTrimTheTimelineToWhatTheSlowestReplicaNeeds() {
        for (int i = 0; i < 100; i++) {
            tracker.primaryPolled(ms(i * 50L), pos("0-1-" + (1 + i)));
            tracker.replicaPolled(R1, ms(i * 50L + 10), pos("0-1-" + (1 + i)), RUNNING);
            if (i == 20) {
                tracker.replicaPolled(R2, ms(i * 50L + 10), pos("0-1-21"), RUNNING);
            }
        }

        assertThat(tracker.timelineSize()).isEqualTo(80);
        assertThat(tracker.status(R1, ms(4_960)).lagMillis()).hasValue(0);
    }

    @Test
    void rejectsUnknownAndDuplicateReplicas() {
        assertThatThrownBy(() -> tracker.status(new MonitoredServer("10.0.0.9", 3306), 0))
                .hasMessage("no replica 10.0.0.9:3306 in shard s0 (have [10.0.0.2:3306, 10.0.0.3:3306])");
        assertThatThrownBy(() -> new ShardLagTracker("s0", List.of(R1, R1), LagMonitorSettings.defaults()))
                .hasMessage("replica 10.0.0.2:3306 listed twice in shard s0");
    }
}
