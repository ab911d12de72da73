package io.shardgate.proxy.sharding;

import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WriteHoldsTest {
    private final AtomicLong now = new AtomicLong(1_000);

    private WriteHolds holds(int maxWaiting) {
        return new WriteHolds(maxWaiting, now::get);
    }

    private static Map<String, WriteHolds.Held> hold(String shard, long until) {
        return Map.of(shard, new WriteHolds.Held("job-1", until));
    }

    @Test
    void nothingIsHeldAtFirstAndAWaitEndsAtOnce() {
        WriteHolds holds = holds(10);
        assertThat(holds.idle()).isTrue();
        assertThat(holds.heldAmong(List.of("s0", "s1"))).isNull();
        assertThat(holds.whenLifted(List.of("s1"))).isCompleted();
    }

    @Test
    void aHoldWithNoWriteUnderWayIsDrainedAtOnce() {
        WriteHolds holds = holds(10);
        holds.set(hold("s1", 60_000));
        assertThat(holds.idle()).isFalse();
        assertThat(holds.heldAmong(List.of("s0", "s1"))).isEqualTo("s1");
        assertThat(holds.drained(Set.of("s1"))).isCompleted();
    }

    @Test
    void theDrainWaitsForTheWritesThatEnteredBeforeTheHold() {
        WriteHolds holds = holds(10);
        holds.enter(List.of("s1"));
        holds.enter(List.of("s1", "s0"));
        holds.set(hold("s1", 60_000));
        CompletableFuture<Void> drained = holds.drained(Set.of("s1"));
        assertThat(drained).isNotDone();
        holds.exit(List.of("s1"));
        assertThat(drained).isNotDone();
        assertThat(holds.writing()).containsEntry("s1", 1).containsEntry("s0", 1);
        holds.exit(List.of("s1", "s0"));
        assertThat(drained).isCompleted();
    }

    @Test
    void aWriteThatSeesTheHoldAndBacksOutDoesNotDelayTheDrain() {
        WriteHolds holds = holds(10);
        holds.set(hold("s1", 60_000));
        holds.enter(List.of("s1"));
        CompletableFuture<Void> drained = holds.drained(Set.of("s1"));
        assertThat(holds.heldAmong(List.of("s1"))).isEqualTo("s1");
        holds.exit(List.of("s1"));
        assertThat(drained).isCompleted();
    }

    @Test
    void waitingWritesGoOnWhenTheHoldIsLifted() {
        WriteHolds holds = holds(10);
        holds.set(hold("s1", 60_000));
        CompletableFuture<Void> waiting = holds.whenLifted(List.of("s0", "s1"));
        assertThat(waiting).isNotDone();
        assertThat(holds.waiting()).isEqualTo(1);
        holds.set(Map.of("s2", new WriteHolds.Held("job-2", 60_000))); // another shard held: s1 is lifted
        assertThat(waiting).isCompleted();
        assertThat(holds.waiting()).isZero();
        assertThat(holds.whenLifted(List.of("s2"))).isNotDone();
    }

    @Test
    void aWriteWaitsAtMostTheHoldsBoundThenFailsWithWritesHeld() {
        WriteHolds holds = holds(10);
        holds.set(hold("s1", now.get() + 50));
        CompletableFuture<Void> waiting = holds.whenLifted(List.of("s1"));
        assertThatThrownBy(() -> waiting.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOfSatisfying(ShardgateException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.WRITES_HELD);
                    assertThat(e.getMessage()).contains("s1").contains("job-1").contains("nothing was written");
                });
        assertThat(holds.waiting()).isZero();
    }

    @Test
    void beyondMaxWaitingAWriteFailsAtOnce() {
        WriteHolds holds = holds(1);
        holds.set(hold("s1", 60_000));
        CompletableFuture<Void> first = holds.whenLifted(List.of("s1"));
        CompletableFuture<Void> second = holds.whenLifted(List.of("s1"));
        assertThat(first).isNotDone();
        assertThat(second).isCompletedExceptionally();
        assertThatThrownBy(second::join).cause().isInstanceOfSatisfying(ShardgateException.class,
                e -> assertThat(e.getMessage()).contains("1 statements wait already"));
    }

    @Test
    void aHoldSetAgainKeepsItsDrainState() {
        WriteHolds holds = holds(10);
        holds.enter(List.of("s1"));
        holds.set(hold("s1", 60_000));
        CompletableFuture<Void> drained = holds.drained("s1");
        holds.set(Map.of("s1", new WriteHolds.Held("job-1", 60_000), "s3", new WriteHolds.Held("job-2", 60_000)));
        assertThat(holds.drained("s1")).isSameAs(drained).isNotDone();
        holds.exit(List.of("s1"));
        assertThat(drained).isCompleted();
    }

    @Test
    void aTransactionUnderWayOnAHeldShardMayWriteToTheSameHoldsOtherShardsOnly() {
        WriteHolds holds = holds(10);
        holds.set(Map.of("s2", new WriteHolds.Held("job-1", 60_000), "s3", new WriteHolds.Held("job-1", 60_000),
                "s5", new WriteHolds.Held("job-2", 60_000)));
        assertThat(holds.sameHold(List.of("s2"), List.of("s3", "s0"))).as("s3 is held with s2").isTrue();
        assertThat(holds.sameHold(List.of("s2"), List.of("s3", "s5"))).as("s5 is another job's").isFalse();
        assertThat(holds.sameHold(List.of("s0"), List.of("s3"))).as("a transaction on no held shard waits").isFalse();
        assertThat(holds.sameHold(List.of(), List.of("s3"))).isFalse();
    }
}
