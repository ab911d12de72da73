package io.shardgate.proxy.sharding.xa;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import static io.shardgate.proxy.sharding.xa.RecordingDecisionLog.Failure.AFTER_WRITE;
import static io.shardgate.proxy.sharding.xa.RecordingDecisionLog.Failure.BEFORE_WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class XaCoordinatorTest {
    private static final String GTRID = "sg-1-1";

    private final List<String> events = new ArrayList<>();
    private final RecordingDecisionLog log = new RecordingDecisionLog(events);
    private final XaCoordinator coordinator = new XaCoordinator(log, Runnable::run);
    private final RecordingBranch s0 = new RecordingBranch("s0", events);
    private final RecordingBranch s1 = new RecordingBranch("s1", events);

    @Test
    void startSendsXaStartWithTheBranchXid() {
        coordinator.start(GTRID, s1).join();

        assertThat(s1.lastSql()).isEqualTo("XA START " + new XaId(GTRID, "s1").sql());
    }

    @Test
    void twoBranchesPrepareThenTheDecisionIsLoggedThenEachCommits() {
        coordinator.commit(GTRID, List.of(s0, s1)).join();

        assertThat(events).containsExactly(
                "s0: XA END", "s0: XA PREPARE",
                "s1: XA END", "s1: XA PREPARE",
                "log: decide COMMIT",
                "s0: XA COMMIT", "s1: XA COMMIT",
                "log: forget");
        assertThat(log.decisionOf(GTRID)).isNull();
        assertThat(coordinator.commitFailuresAfterDecision()).isZero();
    }

    @Test
    void everyBranchIsAskedToPrepareBeforeAnyPrepareAnswers() {
        CompletableFuture<Void> s0Prepared = s0.hold("XA PREPARE");

        CompletableFuture<Void> commit = coordinator.commit(GTRID, List.of(s0, s1));

        assertThat(events).containsExactly("s0: XA END", "s0: XA PREPARE", "s1: XA END", "s1: XA PREPARE");
        assertThat(commit).isNotDone();
        s0Prepared.complete(null);
        assertThat(commit).isCompleted();
        assertThat(events).contains("log: decide COMMIT");
    }

    @Test
    void aFailedPrepareRollsBackEveryBranchAndFailsWithThatErrorWithoutLogging() {
        RuntimeException prepareError = new RuntimeException("1614 (XA102): XA_RBDEADLOCK");
        s1.failing("XA PREPARE", prepareError);

        CompletableFuture<Void> commit = coordinator.commit(GTRID, List.of(s0, s1));

        assertThatThrownBy(commit::join).isInstanceOf(CompletionException.class).cause().isSameAs(prepareError);
        assertThat(events).containsExactly(
                "s0: XA END", "s0: XA PREPARE",
                "s1: XA END", "s1: XA PREPARE",
                "s0: XA ROLLBACK", "s1: XA ROLLBACK");
        assertThat(prepareError.getSuppressed()).isEmpty();
    }

    @Test
    void aRollbackThatAlsoFailsIsAttachedToThePrepareError() {
        RuntimeException prepareError = new RuntimeException("prepare failed");
        RuntimeException rollbackError = new RuntimeException("connection lost");
        s0.failing("XA END", prepareError).failing("XA ROLLBACK", rollbackError);

        CompletableFuture<Void> commit = coordinator.commit(GTRID, List.of(s0, s1));

        assertThatThrownBy(commit::join).cause().isSameAs(prepareError);
        assertThat(prepareError.getSuppressed()).containsExactly(rollbackError);
        assertThat(events).doesNotContain("s0: XA PREPARE", "log: decide COMMIT").contains("s1: XA ROLLBACK");
    }

    @Test
    void aBranchThatFailsToCommitAfterTheDecisionDoesNotFailTheCommitAndKeepsTheDecision() {
        s1.failing("XA COMMIT", new RuntimeException("connection lost"));

        coordinator.commit(GTRID, List.of(s0, s1)).join();

        assertThat(coordinator.commitFailuresAfterDecision()).isEqualTo(1);
        assertThat(events).endsWith("log: decide COMMIT", "s0: XA COMMIT", "s1: XA COMMIT").doesNotContain("log: forget");
        assertThat(log.decisionOf(GTRID)).isEqualTo(XaDecision.COMMIT);
    }

    @Test
    void oneBranchCommitsInOnePhaseWithoutTheLog() {
        coordinator.commit(GTRID, List.of(s1)).join();

        assertThat(events).containsExactly("s1: XA END", "s1: XA COMMIT ONE PHASE");
        assertThat(s1.lastSql()).isEqualTo("XA COMMIT " + new XaId(GTRID, "s1").sql() + " ONE PHASE");
    }

    @Test
    void oneBranchThatCannotEndIsRolledBackAndTheCommitFails() {
        RuntimeException endError = new RuntimeException("XA_RBROLLBACK");
        s0.failing("XA END", endError);

        CompletableFuture<Void> commit = coordinator.commit(GTRID, List.of(s0));

        assertThatThrownBy(commit::join).cause().isSameAs(endError);
        assertThat(events).containsExactly("s0: XA END", "s0: XA ROLLBACK");
    }

    @Test
    void noBranchesIsAnImmediateCommit() {
        coordinator.commit(GTRID, List.of()).join();

        assertThat(events).isEmpty();
        assertThat(coordinator.inFlight(GTRID)).isFalse();
    }

    @Test
    void aTransactionRecoveryFencedWithAbortRollsBack() {
        log.recorded(GTRID, XaDecision.ABORT);

        CompletableFuture<Void> commit = coordinator.commit(GTRID, List.of(s0, s1));

        assertThatThrownBy(commit::join).cause().isInstanceOf(XaException.class)
                .hasMessage("transaction sg-1-1 was rolled back: the decision log holds ABORT for it"
                        + " (recovery fenced it, or its commit could not be logged)");
        assertThat(events).endsWith("log: decide COMMIT", "s0: XA ROLLBACK", "s1: XA ROLLBACK")
                .doesNotContain("s0: XA COMMIT", "s1: XA COMMIT");
    }

    @Test
    void aCommitThatCannotBeLoggedIsFencedWithAbortAndRolledBack() {
        log.failNextDecide(BEFORE_WRITE);

        CompletableFuture<Void> commit = coordinator.commit(GTRID, List.of(s0, s1));

        assertThatThrownBy(commit::join).cause().isInstanceOf(XaException.class);
        assertThat(events).endsWith("log: decide COMMIT", "log: decide ABORT", "s0: XA ROLLBACK", "s1: XA ROLLBACK");
        assertThat(log.decisionOf(GTRID)).isEqualTo(XaDecision.ABORT);
    }

    @Test
    void aCommitLoggedDespiteAnErrorIsFoundByTheFenceAndCommits() {
        log.failNextDecide(AFTER_WRITE);

        coordinator.commit(GTRID, List.of(s0, s1)).join();

        assertThat(events).endsWith("log: decide COMMIT", "log: decide ABORT", "s0: XA COMMIT", "s1: XA COMMIT",
                "log: forget");
    }

    @Test
    void withNoDecisionLogAtAllTheBranchesStayPreparedForRecovery() {
        log.failNextDecide(BEFORE_WRITE).failNextDecide(BEFORE_WRITE);

        CompletableFuture<Void> commit = coordinator.commit(GTRID, List.of(s0, s1));

        assertThatThrownBy(commit::join).cause().isInstanceOfSatisfying(XaException.class, e -> {
            assertThat(e.branchesLeftPrepared()).isTrue();
            assertThat(e).hasMessage("transaction sg-1-1: cannot log its commit decision; its branches stay prepared"
                    + " for recovery");
            assertThat(e.getSuppressed()).hasSize(1);
        });
        assertThat(events).endsWith("s1: XA PREPARE", "log: decide COMMIT", "log: decide ABORT");
    }

    @Test
    void rollbackEndsAndRollsBackEveryBranchAndReportsTheFirstFailureAfterTryingAll() {
        RuntimeException first = new RuntimeException("s0 gone");
        RuntimeException second = new RuntimeException("s1 gone");
        s0.failing("XA ROLLBACK", first);
        s1.failing("XA END", new RuntimeException("already ended")).failing("XA ROLLBACK", second);

        CompletableFuture<Void> rollback = coordinator.rollback(GTRID, List.of(s0, s1));

        assertThatThrownBy(rollback::join).cause().isSameAs(first);
        assertThat(first.getSuppressed()).containsExactly(second);
        assertThat(events).containsExactly("s0: XA END", "s0: XA ROLLBACK", "s1: XA END", "s1: XA ROLLBACK");
        assertThat(coordinator.inFlight(GTRID)).isFalse();
    }

    @Test
    void rollbackOfAnEndedBranchStillRollsItBack() {
        s0.failing("XA END", new RuntimeException("XAER_RMFAIL: already IDLE"));

        coordinator.rollback(GTRID, List.of(s0)).join();

        assertThat(events).containsExactly("s0: XA END", "s0: XA ROLLBACK");
    }

    @Test
    void aTransactionIsInFlightFromStartUntilItsCommitCompletes() {
        CompletableFuture<Void> s1Committed = s1.hold("XA COMMIT");
        coordinator.start(GTRID, s0).join();
        assertThat(coordinator.inFlight(GTRID)).isTrue();

        CompletableFuture<Void> commit = coordinator.commit(GTRID, List.of(s0, s1));
        assertThat(coordinator.inFlight(GTRID)).isTrue();

        s1Committed.complete(null);
        commit.join();
        assertThat(coordinator.inFlight(GTRID)).isFalse();
        assertThat(coordinator.inFlight("sg-1-2")).isFalse();
    }

    @Test
    void aBranchThatThrowsInsteadOfFailingItsFutureFailsTheCommit() {
        RuntimeException thrown = new IllegalStateException("connection closed");
        XaBranch throwing = new XaBranch() {
            @Override
            public String shard() {
                return "s2";
            }

            @Override
            public CompletableFuture<Void> run(String sql) {
                throw thrown;
            }
        };

        CompletableFuture<Void> commit = coordinator.commit(GTRID, List.of(s0, throwing));

        assertThatThrownBy(commit::join).cause().isSameAs(thrown);
        assertThat(events).contains("s0: XA ROLLBACK").doesNotContain("log: decide COMMIT");
    }

    @Test
    void rejectsTwoBranchesOnOneShard() {
        assertThatThrownBy(() -> coordinator.commit(GTRID, List.of(s0, new RecordingBranch("s0", events))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("two branches on shard s0");
        assertThat(events).isEmpty();
    }
}
