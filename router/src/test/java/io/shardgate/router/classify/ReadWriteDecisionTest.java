package io.shardgate.router.classify;

import org.junit.jupiter.api.Test;

import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReadWriteDecisionTest {

    private static final StatementClassifier CLASSIFIER = new StatementClassifier();

    private static final SessionRoutingState AUTOCOMMIT = SessionRoutingState.INITIAL;
    private static final SessionRoutingState IN_TRANSACTION = new SessionRoutingState(true, false, false, true);
    private static final SessionRoutingState IN_READ_ONLY_TRANSACTION = new SessionRoutingState(true, true, false, true);
    private static final SessionRoutingState NEXT_TRANSACTION_READ_ONLY = new SessionRoutingState(false, true, false, true);
    private static final SessionRoutingState TEMPORARY_TABLES = new SessionRoutingState(false, false, true, true);
    private static final SessionRoutingState AUTOCOMMIT_OFF = new SessionRoutingState(false, false, false, false);

    /** Classifies {@code sql} and decides with the hints found in it. */
    private static Target target(String sql, SessionRoutingState session) {
        return decide(sql, session).target();
    }

    private static RoutingDecision decide(String sql, SessionRoutingState session) {
        Classification classification = CLASSIFIER.classify(sql);
        return ReadWriteDecision.decide(classification, session, classification.hints());
    }

    @Test
    void autocommitReadsGoToAReplica() {
        assertThat(decide("SELECT c FROM sbtest1 WHERE id=1", AUTOCOMMIT))
                .isEqualTo(new RoutingDecision(Target.REPLICA, "autocommit read"));
        assertThat(target("SELECT 1; SELECT 2", AUTOCOMMIT)).isEqualTo(Target.REPLICA);
        assertThat(target("WITH c AS (SELECT 1) SELECT * FROM c", AUTOCOMMIT)).isEqualTo(Target.REPLICA);
    }

    @Test
    void writesLockingReadsAndReadsNeedingThePrimaryGoToThePrimary() {
        assertThat(target("UPDATE sbtest1 SET k=k+1 WHERE id=1", AUTOCOMMIT)).isEqualTo(Target.PRIMARY);
        assertThat(decide("SELECT * FROM t WHERE id=1 FOR UPDATE", AUTOCOMMIT))
                .isEqualTo(new RoutingDecision(Target.PRIMARY, "locking read"));
        assertThat(target("SELECT LAST_INSERT_ID()", AUTOCOMMIT)).isEqualTo(Target.PRIMARY);
        assertThat(target("SELECT GET_LOCK('a', 1)", AUTOCOMMIT)).isEqualTo(Target.PRIMARY);
        assertThat(target("SELECT 1; UPDATE t SET a=1", AUTOCOMMIT)).isEqualTo(Target.PRIMARY);
    }

    @Test
    void metadataAndUnknownStatementsGoToThePrimary() {
        assertThat(target("SHOW TABLES", AUTOCOMMIT)).isEqualTo(Target.PRIMARY);
        assertThat(target("EXPLAIN SELECT 1", AUTOCOMMIT)).isEqualTo(Target.PRIMARY);
        assertThat(decide("hello world", AUTOCOMMIT).reason()).contains("unrecognised");
    }

    @Test
    void anExplicitTransactionIsOnThePrimaryForItsWholeLength() {
        assertThat(decide("BEGIN", AUTOCOMMIT))
                .isEqualTo(new RoutingDecision(Target.PRIMARY, "explicit transaction: the primary for its whole length"));
        assertThat(target("START TRANSACTION", AUTOCOMMIT)).isEqualTo(Target.PRIMARY);
        for (String sql : new String[] {"SELECT c FROM sbtest1 WHERE id=1", "UPDATE t SET a=1", "COMMIT", "SAVEPOINT a", "SHOW TABLES"}) {
            assertThat(decide(sql, IN_TRANSACTION))
                    .as(sql)
                    .isEqualTo(new RoutingDecision(Target.SAME_AS_TRANSACTION, "transaction stays on the primary for its whole length"));
        }
    }

    @Test
    void aReadOnlyTransactionIsOnOneReplicaForItsWholeLength() {
        assertThat(target("START TRANSACTION READ ONLY", AUTOCOMMIT)).isEqualTo(Target.REPLICA);
        assertThat(target("BEGIN", NEXT_TRANSACTION_READ_ONLY)).as("after SET TRANSACTION READ ONLY").isEqualTo(Target.REPLICA);
        assertThat(decide("SELECT 1", IN_READ_ONLY_TRANSACTION))
                .isEqualTo(new RoutingDecision(Target.SAME_AS_TRANSACTION, "read-only transaction stays on its replica"));
        assertThat(target("COMMIT", IN_READ_ONLY_TRANSACTION)).isEqualTo(Target.SAME_AS_TRANSACTION);
        assertThat(target("UPDATE t SET a = 1", IN_READ_ONLY_TRANSACTION))
                .as("the replica refuses it just as the primary would in a read-only transaction")
                .isEqualTo(Target.SAME_AS_TRANSACTION);
    }

    @Test
    void temporaryTablesPinTheSessionToThePrimary() {
        assertThat(target("CREATE TEMPORARY TABLE tmp (id INT)", AUTOCOMMIT)).isEqualTo(Target.PRIMARY);
        assertThat(decide("SELECT * FROM tmp", TEMPORARY_TABLES))
                .isEqualTo(new RoutingDecision(Target.PRIMARY, "temporary tables pin the session to the primary"));
        assertThat(target("START TRANSACTION READ ONLY", TEMPORARY_TABLES)).isEqualTo(Target.PRIMARY);
        assertThat(target("SET NAMES utf8mb4", TEMPORARY_TABLES)).as("settings are still tracked").isEqualTo(Target.TRACKED);
    }

    @Test
    void settingsAreTrackedNotRouted() {
        assertThat(decide("SET NAMES utf8mb4", AUTOCOMMIT))
                .isEqualTo(new RoutingDecision(Target.TRACKED, "session setting: tracked and replayed, not routed"));
        assertThat(target("USE sbtest", AUTOCOMMIT)).isEqualTo(Target.TRACKED);
        assertThat(target("SET autocommit=0", AUTOCOMMIT)).isEqualTo(Target.TRACKED);
        assertThat(target("SET TRANSACTION READ ONLY", AUTOCOMMIT)).isEqualTo(Target.TRACKED);
        assertThat(target("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED", AUTOCOMMIT)).isEqualTo(Target.TRACKED);
        assertThat(target("SET autocommit=1", IN_TRANSACTION)).as("commits the open transaction where it runs")
                .isEqualTo(Target.SAME_AS_TRANSACTION);
        assertThat(target("SET NAMES utf8mb4; SELECT 1", AUTOCOMMIT)).as("a multi-statement is not a setting").isEqualTo(Target.PRIMARY);
        assertThat(target("SET GLOBAL max_connections = 10", AUTOCOMMIT)).as("global: a write").isEqualTo(Target.PRIMARY);
    }

    @Test
    void withAutocommitOffEveryStatementOpensATransaction() {
        assertThat(decide("SELECT 1", AUTOCOMMIT_OFF))
                .isEqualTo(new RoutingDecision(Target.PRIMARY, "autocommit off: opens a transaction on the primary"));
        assertThat(target("SELECT 1", new SessionRoutingState(false, true, false, false))).isEqualTo(Target.REPLICA);
    }

    @Test
    void transactionEndsWithNoTransactionOpenAreHarmlessOnThePrimary() {
        assertThat(target("COMMIT", AUTOCOMMIT)).isEqualTo(Target.PRIMARY);
        assertThat(target("ROLLBACK", AUTOCOMMIT)).isEqualTo(Target.PRIMARY);
        assertThat(target("XA START 'x'", AUTOCOMMIT)).isEqualTo(Target.PRIMARY);
    }

    @Test
    void hintsComeFromTheRequest() {
        Classification read = CLASSIFIER.classify("SELECT 1");
        assertThat(ReadWriteDecision.decide(read, AUTOCOMMIT, new Hints(OptionalLong.empty(), true)))
                .isEqualTo(new RoutingDecision(Target.PRIMARY, "hint: shardgate primary"));
        assertThat(ReadWriteDecision.decide(read, AUTOCOMMIT, Hints.NONE).target()).isEqualTo(Target.REPLICA);
        assertThat(target("/*+ shardgate primary */ SELECT 1", AUTOCOMMIT)).isEqualTo(Target.PRIMARY);
        assertThat(target("/*+ shardgate primary */ UPDATE t SET a = 1", AUTOCOMMIT)).isEqualTo(Target.PRIMARY);
    }

    @Test
    void theHintLeavesAReadOnlyTransactionButNeverMovesWhatMustStayPut() {
        assertThat(decide("/*+ shardgate primary */ SELECT 1", IN_READ_ONLY_TRANSACTION))
                .isEqualTo(new RoutingDecision(Target.PRIMARY, "hint: shardgate primary, outside the read-only transaction"));
        assertThat(target("/*+ shardgate primary */ SELECT 1", IN_TRANSACTION)).as("already on the primary, in its transaction")
                .isEqualTo(Target.SAME_AS_TRANSACTION);
        assertThat(target("/*+ shardgate primary */ SET NAMES utf8mb4", AUTOCOMMIT)).isEqualTo(Target.TRACKED);
        assertThat(target("/*+ shardgate primary */ SET NAMES utf8mb4", IN_READ_ONLY_TRANSACTION)).isEqualTo(Target.SAME_AS_TRANSACTION);
        assertThat(target("/*+ shardgate primary */ START TRANSACTION READ ONLY", AUTOCOMMIT)).isEqualTo(Target.PRIMARY);
    }

    @Test
    void aLagLimitLeavesTheReplicaChoiceToTheLagFilter() {
        // max_lag_ms=0 still admits a replica that has applied everything: the lag filter decides.
        assertThat(target("/*+ shardgate max_lag_ms=0 */ SELECT 1", AUTOCOMMIT)).isEqualTo(Target.REPLICA);
        assertThat(target("/*+ shardgate max_lag_ms=100 */ SELECT 1", AUTOCOMMIT)).isEqualTo(Target.REPLICA);
    }

    @Test
    void rejectsNulls() {
        Classification read = CLASSIFIER.classify("SELECT 1");
        assertThatThrownBy(() -> ReadWriteDecision.decide(null, AUTOCOMMIT, Hints.NONE)).hasMessage("statement is null");
        assertThatThrownBy(() -> ReadWriteDecision.decide(read, null, Hints.NONE)).hasMessage("session is null");
        assertThatThrownBy(() -> ReadWriteDecision.decide(read, AUTOCOMMIT, null)).hasMessage("hints is null");
    }
}
