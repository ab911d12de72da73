package io.shardgate.it;

import io.shardgate.proxy.config.HostPort;
import io.shardgate.proxy.sharding.ControlPlane;
import io.shardgate.proxy.sharding.GlobalTransactionIds;
import io.shardgate.proxy.sharding.xa.XaBranch;
import io.shardgate.proxy.sharding.xa.XaCoordinator;
import io.shardgate.proxy.sharding.xa.XaDecision;
import io.shardgate.proxy.sharding.xa.XaDecisionLog;
import io.shardgate.proxy.sharding.xa.XaDecisionTable;
import io.shardgate.proxy.sharding.xa.XaException;
import io.shardgate.proxy.sharding.xa.XaId;
import io.shardgate.proxy.sharding.xa.XaRecovery;
import io.shardgate.proxy.sharding.xa.XaRecoverySummary;
import io.shardgate.proxy.sharding.xa.XaStatements;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Shard;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Two-phase commit across an InnoDB shard (s0, which also keeps the decision log) and a MyRocks
 * shard (s1), with real prepared branches, "crashes" (branch connections closed between prepare
 * and commit) and recovery by a fresh {@link XaRecovery}, as a restarted proxy would run it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class XaCoordinationIT {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final List<String> SHARDS = List.of("s0", "s1");

    private final GlobalTransactionIds ids = new GlobalTransactionIds();
    private final List<JdbcBranch> opened = new ArrayList<>();
    private Topology topology;
    private ControlPlane controlPlane;
    private XaDecisionTable decisions;
    private ExecutorService blocking;
    private XaCoordinator coordinator;
    private int nextRow;

    @BeforeAll
    void start() {
        topology = Topology.start(TopologySpec.builder()
                .shard("s0", Engine.INNODB, 0)
                .shard("s1", Engine.ROCKSDB, 0)
                .build());
        for (Shard shard : topology.shards()) {
            shard.primary().execute("CREATE DATABASE it", "CREATE TABLE it.moves (id INT PRIMARY KEY, note VARCHAR(40))");
        }
        controlPlane = newControlPlane();
        decisions = XaDecisionTable.on(controlPlane, "s0");
        assertThat(decisions.decidedBefore(Duration.ZERO)).as("a new decision log (created on first use)").isEmpty();
        blocking = Executors.newFixedThreadPool(2);
        coordinator = new XaCoordinator(decisions, blocking);
    }

    @AfterEach
    void closeBranches() throws SQLException {
        for (JdbcBranch branch : opened) {
            branch.connection.close();
        }
        opened.clear();
    }

    @AfterAll
    void stop() {
        if (blocking != null) {
            blocking.shutdownNow();
        }
        if (controlPlane != null) {
            controlPlane.close();
        }
        if (topology != null) {
            topology.close();
        }
    }

    @Test
    void theMyRocksShardReallyRunsItsBranchOnMyRocks() {
        assertThat(topology.shard("s1").primary().queryString("SELECT ENGINE FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = 'it' AND TABLE_NAME = 'moves'")).isEqualTo("ROCKSDB");
        assertThat(topology.shard("s1").primary().queryString("SELECT XA FROM information_schema.ENGINES"
                + " WHERE ENGINE = 'ROCKSDB'")).isEqualTo("YES");
    }

    @Test
    void aCrossShardTransactionCommitsOnBothShardsAtOnce() throws Exception {
        String gtrid = ids.next();
        int row = writeOnBothShards(gtrid);
        assertThat(visibleOn(SHARDS, row)).as("uncommitted rows are invisible").containsExactly(false, false);

        coordinator.commit(gtrid, opened()).get(30, TimeUnit.SECONDS);

        assertThat(visibleOn(SHARDS, row)).containsExactly(true, true);
        assertNoPreparedBranches();
        await("the decision of " + gtrid + " is deleted", () -> decisionOf(gtrid) == null);
        assertThat(coordinator.inFlight(gtrid)).isFalse();
        assertThat(topology.shard("s0").primary().queryString("SELECT ENGINE FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = '_shardgate' AND TABLE_NAME = 'xa_decisions'")).isEqualTo("InnoDB");
    }

    @Test
    void aSingleShardTransactionCommitsInOnePhaseWithoutADecision() throws Exception {
        String gtrid = ids.next();
        JdbcBranch s1 = open("s1", gtrid);
        int row = ++nextRow;
        s1.insert(row, gtrid);

        coordinator.commit(gtrid, List.of(s1)).get(30, TimeUnit.SECONDS);

        assertThat(visibleOn(List.of("s1"), row)).containsExactly(true);
        assertThat(decisionOf(gtrid)).isNull();
        assertNoPreparedBranches();
    }

    @Test
    void rollbackLeavesNoTraceAndTheConnectionsWorkAfterwards() throws Exception {
        String gtrid = ids.next();
        int row = writeOnBothShards(gtrid);

        coordinator.rollback(gtrid, opened()).get(30, TimeUnit.SECONDS);

        assertThat(visibleOn(SHARDS, row)).containsExactly(false, false);
        assertNoPreparedBranches();
        assertThat(decisionOf(gtrid)).isNull();
        int plain = ++nextRow;
        for (JdbcBranch branch : opened) {
            branch.insert(plain, "autocommitted after the rollback");
        }
        assertThat(visibleOn(SHARDS, plain)).containsExactly(true, true);
    }

    @Test
    void aBranchLostBeforePrepareRollsBackTheOtherAndFailsTheCommit() throws Exception {
        String gtrid = ids.next();
        int row = writeOnBothShards(gtrid);
        JdbcBranch s1 = opened.get(1);
        topology.shard("s1").primary().execute("KILL " + s1.connectionId);

        CompletableFuture<Void> commit = coordinator.commit(gtrid, opened());

        assertThatThrownBy(() -> commit.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(SQLException.class);
        assertThat(visibleOn(SHARDS, row)).containsExactly(false, false);
        assertNoPreparedBranches();
        assertThat(decisionOf(gtrid)).isNull();
    }

    @Test
    void aCrashAfterTheDecisionWasLoggedIsCommittedOnBothShardsByRecovery() throws Exception {
        String gtrid = ids.next();
        int row = writeOnBothShards(gtrid);
        prepareAndCrash(gtrid, true);

        XaRecoverySummary summary = freshRecovery();

        assertThat(summary.shards()).containsOnlyKeys("s0", "s1");
        assertThat(summary.shards().values()).allSatisfy(shard -> {
            assertThat(shard.scanned()).isTrue();
            assertThat(shard.committed()).isEqualTo(1);
            assertThat(shard.rolledBack()).isZero();
        });
        assertThat(visibleOn(SHARDS, row)).containsExactly(true, true);
        assertNoPreparedBranches();
        // The decision stays until a pass finds no branch of it left.
        assertThat(decisionOf(gtrid)).isEqualTo("commit");
        assertThat(freshRecovery().decisionsDeleted()).isGreaterThanOrEqualTo(1);
        assertThat(decisionOf(gtrid)).isNull();
    }

    @Test
    void aCrashBeforeTheDecisionIsRolledBackOnBothShardsByRecovery() throws Exception {
        String gtrid = ids.next();
        int row = writeOnBothShards(gtrid);
        prepareAndCrash(gtrid, false);

        XaRecoverySummary summary = freshRecovery();

        assertThat(summary.shards().values()).allSatisfy(shard -> {
            assertThat(shard.rolledBack()).isEqualTo(1);
            assertThat(shard.committed()).isZero();
        });
        assertThat(summary.rolledBack()).isEqualTo(2);
        assertThat(visibleOn(SHARDS, row)).containsExactly(false, false);
        assertNoPreparedBranches();
        // Fenced: a coordinator still holding this gtrid could no longer log COMMIT for it.
        assertThat(decisionOf(gtrid)).isEqualTo("abort");
        assertThat(decisions.decide(gtrid, XaDecision.COMMIT)).isEqualTo(XaDecision.ABORT);
    }

    @Test
    void aBranchWhoseCommitFailsAfterTheDecisionIsFinishedByRecovery() throws Exception {
        String gtrid = ids.next();
        int row = writeOnBothShards(gtrid);
        JdbcBranch s1 = opened.get(1);
        s1.crashOn = XaStatements.commit(new XaId(gtrid, "s1"));
        long failuresBefore = coordinator.commitFailuresAfterDecision();

        coordinator.commit(gtrid, opened()).get(30, TimeUnit.SECONDS);

        assertThat(coordinator.commitFailuresAfterDecision()).isEqualTo(failuresBefore + 1);
        assertThat(visibleOn(SHARDS, row)).containsExactly(true, false);
        assertThat(decisionOf(gtrid)).isEqualTo("commit");
        awaitSessionGone("s1", s1.connectionId);

        XaRecoverySummary summary = freshRecovery();

        assertThat(summary.shards().get("s1").committed()).isEqualTo(1);
        assertThat(summary.shards().get("s0").committed()).isZero();
        assertThat(visibleOn(SHARDS, row)).containsExactly(true, true);
        assertNoPreparedBranches();
    }

    @Test
    void aPatientRecoveryLeavesAGtridItSawPreparedOnceAloneAndRollsItBackTheNextPass() throws Exception {
        String gtrid = ids.next();
        int row = writeOnBothShards(gtrid);
        prepareAndCrash(gtrid, false);

        XaRecovery patient = new XaRecovery(controlPlane, decisions, other -> false, Duration.ofHours(1), true);
        XaRecoverySummary first = patient.resolveAll();
        assertThat(first.shards().values()).as("maybe another proxy's, between its PREPARE and its decision").allSatisfy(shard -> {
            assertThat(shard.skippedInFlight()).isEqualTo(1);
            assertThat(shard.rolledBack() + shard.committed()).isZero();
        });
        assertThat(decisionOf(gtrid)).as("not fenced").isNull();
        assertThat(preparedBranches()).containsExactlyInAnyOrder(gtrid + "/s0", gtrid + "/s1");

        XaRecoverySummary second = patient.resolveAll();
        assertThat(second.rolledBack()).isEqualTo(2);
        assertThat(decisionOf(gtrid)).isEqualTo("abort");
        assertThat(visibleOn(SHARDS, row)).containsExactly(false, false);
        assertNoPreparedBranches();
    }

    @Test
    void recoveryLeavesATransactionInFlightInThisProcessAlone() throws Exception {
        String gtrid = ids.next();
        int row = writeOnBothShards(gtrid);
        prepareAndCrash(gtrid, false);

        XaRecoverySummary skipped = new XaRecovery(controlPlane, decisions, gtrid::equals, Duration.ofHours(1)).resolveAll();

        assertThat(skipped.shards().values()).allSatisfy(shard -> {
            assertThat(shard.skippedInFlight()).isEqualTo(1);
            assertThat(shard.rolledBack() + shard.committed()).isZero();
        });
        assertThat(preparedBranches()).containsExactlyInAnyOrder(gtrid + "/s0", gtrid + "/s1");
        assertThat(decisionOf(gtrid)).isNull();

        assertThat(freshRecovery().rolledBack()).isEqualTo(2);
        assertThat(visibleOn(SHARDS, row)).containsExactly(false, false);
        assertNoPreparedBranches();
    }

    @Test
    void anotherProxysRecoveryBetweenPrepareAndDecisionFencesTheCommitIntoARollback() throws Exception {
        String gtrid = ids.next();
        int row = writeOnBothShards(gtrid);
        List<XaRecoverySummary> otherPass = new ArrayList<>();
        // The other proxy knows nothing of this gtrid; its pass runs just before this coordinator logs COMMIT.
        XaDecisionLog racingLog = new XaDecisionLog() {
            @Override
            public XaDecision decide(String g, XaDecision proposed) {
                if (otherPass.isEmpty()) {
                    otherPass.add(freshRecovery());
                }
                return decisions.decide(g, proposed);
            }

            @Override
            public void forget(String g) {
                decisions.forget(g);
            }

            @Override
            public Set<String> decidedBefore(Duration age) {
                return decisions.decidedBefore(age);
            }

            @Override
            public int forgetAll(Collection<String> gtrids) {
                return decisions.forgetAll(gtrids);
            }
        };
        XaCoordinator racing = new XaCoordinator(racingLog, blocking);

        CompletableFuture<Void> commit = racing.commit(gtrid, opened());

        assertThatThrownBy(() -> commit.get(30, TimeUnit.SECONDS)).cause().isInstanceOf(XaException.class)
                .hasMessageContaining("the decision log holds ABORT");
        // The branches were still attached to this "proxy's" sessions, so the other pass could not touch them.
        assertThat(otherPass).singleElement().satisfies(pass -> assertThat(pass.shards().values())
                .allSatisfy(shard -> assertThat(shard.unavailable()).isEqualTo(1)));
        assertThat(visibleOn(SHARDS, row)).containsExactly(false, false);
        assertNoPreparedBranches();
    }

    private XaRecoverySummary freshRecovery() {
        try (ControlPlane fresh = newControlPlane()) {
            return new XaRecovery(fresh, XaDecisionTable.on(fresh, "s0"), gtrid -> false, Duration.ZERO).resolveAll();
        }
    }

    private ControlPlane newControlPlane() {
        Map<String, HostPort> primaries = new LinkedHashMap<>();
        for (Shard shard : topology.shards()) {
            primaries.put(shard.name(), new HostPort(shard.primary().host(), shard.primary().port()));
        }
        return new ControlPlane(primaries, topology.accounts().user(), topology.accounts().password());
    }

    /** XA-starts a branch on each shard and writes one row in each; returns the row id. */
    private int writeOnBothShards(String gtrid) throws SQLException {
        int row = ++nextRow;
        for (String shard : SHARDS) {
            open(shard, gtrid).insert(row, gtrid);
        }
        return row;
    }

    private JdbcBranch open(String shard, String gtrid) throws SQLException {
        JdbcBranch branch = new JdbcBranch(shard, topology.shard(shard).primary().connect());
        opened.add(branch);
        coordinator.start(gtrid, branch).join();
        return branch;
    }

    private List<XaBranch> opened() {
        return List.copyOf(opened);
    }

    /**
     * A coordinator's first phase (XA END, XA PREPARE on every open branch), its decision when
     * {@code commitLogged}, then the proxy dies: the branch connections go away without commit, and
     * the servers notice.
     */
    private void prepareAndCrash(String gtrid, boolean commitLogged) throws SQLException {
        for (JdbcBranch branch : opened) {
            XaId id = new XaId(gtrid, branch.shard());
            branch.run(XaStatements.end(id)).join();
            branch.run(XaStatements.prepare(id)).join();
        }
        if (commitLogged) {
            assertThat(decisions.decide(gtrid, XaDecision.COMMIT)).isEqualTo(XaDecision.COMMIT);
        }
        for (JdbcBranch branch : opened) {
            branch.connection.close();
            awaitSessionGone(branch.shard(), branch.connectionId);
        }
        assertThat(preparedBranches()).containsExactlyInAnyOrder(gtrid + "/s0", gtrid + "/s1");
    }

    private void awaitSessionGone(String shard, long connectionId) {
        Node primary = topology.shard(shard).primary();
        await(shard + " session " + connectionId + " ends", () -> "0".equals(primary.queryString(
                "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = " + connectionId)));
    }

    private List<Boolean> visibleOn(List<String> shards, int row) {
        List<Boolean> visible = new ArrayList<>();
        for (String shard : shards) {
            visible.add("1".equals(topology.shard(shard).primary().queryString(
                    "SELECT COUNT(*) FROM it.moves WHERE id = " + row)));
        }
        return visible;
    }

    private String decisionOf(String gtrid) {
        return topology.shard("s0").primary().queryString(
                "SELECT decision FROM _shardgate.xa_decisions WHERE gtrid = '" + gtrid + "'");
    }

    /** Shardgate's prepared branches on both shards, as {@code gtrid/bqual}. */
    private List<String> preparedBranches() throws SQLException {
        List<String> prepared = new ArrayList<>();
        for (Shard shard : topology.shards()) {
            try (Connection connection = shard.primary().connect(); Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery(XaStatements.RECOVER)) {
                while (rows.next()) {
                    XaId.fromRecoverRow(rows.getLong("formatID"), rows.getLong("gtrid_length"),
                            rows.getLong("bqual_length"), rows.getBytes("data")).ifPresent(id -> prepared.add(id.toString()));
                }
            }
        }
        return prepared;
    }

    private void assertNoPreparedBranches() throws SQLException {
        assertThat(preparedBranches()).isEmpty();
    }

    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + WAIT.toSeconds() + " s waiting until " + what);
            }
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
        }
    }

    /** A branch over a plain JDBC connection; a statement can be made to find the connection gone. */
    private static final class JdbcBranch implements XaBranch {
        private final String shard;
        private final Connection connection;
        private final long connectionId;
        private volatile String crashOn;

        JdbcBranch(String shard, Connection connection) throws SQLException {
            this.shard = shard;
            this.connection = connection;
            try (Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT CONNECTION_ID()")) {
                rows.next();
                this.connectionId = rows.getLong(1);
            }
        }

        void insert(int row, String note) throws SQLException {
            try (Statement statement = connection.createStatement()) {
                statement.executeUpdate("INSERT INTO it.moves VALUES (" + row + ", '" + note + "')");
            }
        }

        @Override
        public String shard() {
            return shard;
        }

        @Override
        public CompletableFuture<Void> run(String sql) {
            try {
                if (sql.equals(crashOn)) {
                    connection.close();
                }
                try (Statement statement = connection.createStatement()) {
                    statement.execute(sql);
                }
                return CompletableFuture.completedFuture(null);
            } catch (SQLException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
    }
}
