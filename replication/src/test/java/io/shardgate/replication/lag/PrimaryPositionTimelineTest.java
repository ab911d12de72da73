package io.shardgate.replication.lag;

import io.shardgate.replication.gtid.MariaDbGtidPosition;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lag arithmetic with times in plain milliseconds (converted to nanos), so each case reads as
 * a small story: what the primary had when, what the replica applied, what the lag is later.
 */
class PrimaryPositionTimelineTest {
    private static final long STALE_AFTER = ms(650);

    private final PrimaryPositionTimeline timeline = new PrimaryPositionTimeline(10_000);

    private static long ms(long millis) {
        return millis * 1_000_000;
    }

    private static MariaDbGtidPosition pos(String text) {
        return MariaDbGtidPosition.parse(text);
    }

    private OptionalLong lagAt(long nowMillis, String applied) {
        return timeline.freshnessOf(pos(applied)).lagMillis(ms(nowMillis), STALE_AFTER);
    }

    @Test
    void nothingIsKnownBeforeTheFirstPoll() {
        assertThat(lagAt(10, "0-1-5")).isEmpty();
        timeline.recordCommit(ms(5), pos("0-1-5"));
        assertThat(lagAt(10, "0-1-5")).as("a commit alone does not say the primary was read").isEmpty();
    }

    @Test
    void aCaughtUpReplicaHasLagZero() {
        timeline.recordPoll(ms(0), pos("0-1-10"));
        timeline.recordPoll(ms(50), pos("0-1-12"));

        assertThat(lagAt(60, "0-1-12")).hasValue(0);
        assertThat(lagAt(60, "0-2-13")).as("ahead of the last poll, other server id").hasValue(0);
        assertThat(timeline.frontier()).isEqualTo(pos("0-1-12"));
    }

    @Test
    void aStuckReplicasLagGrowsWithTheClockFromTheLastPollItHad() {
        timeline.recordPoll(ms(0), pos("0-1-10"));
        timeline.recordPoll(ms(50), pos("0-1-12"));
        timeline.recordPoll(ms(100), pos("0-1-15"));

        // It has everything acknowledged before the poll sent at 50 ms, and maybe nothing after.
        assertThat(lagAt(120, "0-1-12")).hasValue(70);
        assertThat(lagAt(120, "0-1-14")).as("between two polls counts as the older").hasValue(70);
        assertThat(lagAt(620, "0-1-12")).hasValue(570);
        assertThat(lagAt(5_050, "0-1-12")).hasValue(5_000);
    }

    @Test
    void anIdlePrimaryMovesTheTimeForwardSoTheNextWriteCausesNoSpike() {
        for (long t = 0; t <= 10_000; t += 50) {
            timeline.recordPoll(ms(t), pos("0-1-10"));
        }
        timeline.recordPoll(ms(10_050), pos("0-1-11"));

        // Stale by at most the 60 ms since the last poll that found 0-1-10 current, not 10 s.
        assertThat(lagAt(10_060, "0-1-10")).hasValue(60);
        assertThat(timeline.size()).as("unchanged polls replace, not append").isEqualTo(2);
    }

    @Test
    void aReplicaMissingWritesOlderThanTheTimelineIsUnknown() {
        timeline.recordPoll(ms(0), pos("0-1-10"));
        timeline.recordPoll(ms(50), pos("0-1-12"));

        assertThat(lagAt(60, "0-1-9")).as("when 0-1-10 was written is not known").isEmpty();
        assertThat(lagAt(60, "")).isEmpty();
    }

    @Test
    void theLagOfSeveralDomainsIsTheWorstDomain() {
        timeline.recordPoll(ms(0), pos("0-1-10,1-1-100"));
        timeline.recordPoll(ms(50), pos("0-1-11,1-1-100"));
        timeline.recordPoll(ms(100), pos("0-1-12,1-1-105"));

        assertThat(lagAt(110, "0-1-12,1-1-105")).hasValue(0);
        assertThat(lagAt(110, "0-1-12,1-1-100")).as("domain 1 last held at the 50 ms poll").hasValue(60);
        assertThat(lagAt(110, "0-1-10,1-1-105")).as("domain 0 last held at the 0 ms poll").hasValue(110);
        assertThat(lagAt(110, "0-1-12")).as("nothing of domain 1").isEmpty();
    }

    @Test
    void aDomainThatAppearsLaterIsStaleSinceThePollThatDidNotSeeIt() {
        timeline.recordPoll(ms(0), pos("0-1-10"));
        timeline.recordPoll(ms(50), pos("0-1-10,7-1-1"));

        assertThat(lagAt(80, "0-1-10")).as("lacks only 7-1-1, written after the 0 ms poll").hasValue(80);
        assertThat(lagAt(80, "0-1-10,7-1-1")).hasValue(0);
    }

    @Test
    void anObservedCommitCountsFromTheTimeItsStatementWasSent() {
        timeline.recordPoll(ms(0), pos("0-1-10"));
        timeline.recordCommit(ms(20), pos("0-1-11"));

        assertThat(lagAt(30, "0-1-10")).as("no longer caught up").hasValue(30);
        assertThat(lagAt(30, "0-1-11")).hasValue(0);
        timeline.recordCommit(ms(25), pos("0-1-13"));
        assertThat(lagAt(30, "0-1-12")).as("has what was acknowledged before 20 ms").hasValue(10);
    }

    @Test
    void aCommitWithoutTimeOnlyEndsCaughtUp() {
        timeline.recordPoll(ms(0), pos("0-1-10"));
        timeline.recordPoll(ms(50), pos("0-1-10"));
        timeline.recordCommit(pos("0-1-11"));

        assertThat(lagAt(70, "0-1-10")).hasValue(20);
        assertThat(lagAt(70, "0-1-11")).hasValue(0);
        assertThat(timeline.frontier()).isEqualTo(pos("0-1-11"));
    }

    @Test
    void aLateCommitWithAnOlderTimeDoesNotMoveTheBoundsForward() {
        timeline.recordPoll(ms(0), pos("0-1-10"));
        timeline.recordPoll(ms(50), pos("0-1-15"));
        timeline.recordCommit(ms(40), pos("0-1-14"));
        timeline.recordCommit(ms(30), pos("0-1-16"));

        assertThat(lagAt(100, "0-1-15")).hasValue(50);
        assertThat(lagAt(100, "0-1-14")).hasValue(60);
        assertThat(lagAt(100, "0-1-13")).hasValue(100);
    }

    @Test
    void caughtUpStopsMeaningFreshWhenThePrimaryIsNoLongerPolled() {
        timeline.recordPoll(ms(0), pos("0-1-10"));

        assertThat(lagAt(650, "0-1-10")).hasValue(0);
        assertThat(lagAt(651, "0-1-10")).as("the primary may have written since").hasValue(651);
    }

    @Test
    void aReplicaThatIsBehindByLessThanAMillisecondIsNotCaughtUp() {
        timeline.recordPoll(ms(0), pos("0-1-10"));
        timeline.recordPoll(ms(50), pos("0-1-11"));

        assertThat(timeline.freshnessOf(pos("0-1-10")).lagMillis(ms(0) + 200_000, STALE_AFTER)).hasValue(1);
    }

    @Test
    void retainingDropsOnlyWhatNoReplicaAnchorsOn() {
        for (int i = 0; i < 100; i++) {
            timeline.recordPoll(ms(i * 50L), pos("0-1-" + (10 + i)));
        }
        List<MariaDbGtidPosition> replicas = List.of(pos("0-1-60"), pos("0-1-100"), pos("0-1-109"));
        List<OptionalLong> before = replicas.stream()
                .map(p -> timeline.freshnessOf(p).lagMillis(ms(6_000), STALE_AFTER)).toList();

        timeline.retainFor(replicas);

        assertThat(timeline.size()).isEqualTo(50);
        assertThat(replicas.stream().map(p -> timeline.freshnessOf(p).lagMillis(ms(6_000), STALE_AFTER)).toList())
                .isEqualTo(before);
        assertThat(lagAt(6_000, "0-1-59")).as("behind every retained entry").isEmpty();
    }

    @Test
    void thinningPastTheCapKeepsTheLagConservative() {
        PrimaryPositionTimeline capped = new PrimaryPositionTimeline(16);
        PrimaryPositionTimeline full = new PrimaryPositionTimeline(10_000);
        for (int i = 0; i < 200; i++) {
            capped.recordPoll(ms(i * 10L), pos("0-1-" + (1 + i)));
            full.recordPoll(ms(i * 10L), pos("0-1-" + (1 + i)));
        }

        assertThat(capped.size()).isLessThanOrEqualTo(16);
        for (int applied = 1; applied <= 200; applied++) {
            OptionalLong exact = full.freshnessOf(pos("0-1-" + applied)).lagMillis(ms(2_000), STALE_AFTER);
            OptionalLong thinned = capped.freshnessOf(pos("0-1-" + applied)).lagMillis(ms(2_000), STALE_AFTER);
            assertThat(thinned).as("replica at %d", applied).isPresent();
            assertThat(thinned.getAsLong()).as("replica at %d", applied).isGreaterThanOrEqualTo(exact.getAsLong());
        }
        assertThat(capped.freshnessOf(pos("0-1-200")).lagMillis(ms(2_000), STALE_AFTER)).hasValue(0);
        assertThat(capped.freshnessOf(pos("0-1-199")).lagMillis(ms(2_000), STALE_AFTER))
                .as("recent entries keep full resolution").hasValue(20);
    }
}
