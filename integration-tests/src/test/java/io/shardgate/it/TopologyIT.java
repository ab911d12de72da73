package io.shardgate.it;

import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Shard;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The topology fixture itself: real servers, real GTID replication, and the fault controls. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TopologyIT {
    private static final Duration CATCH_UP = Duration.ofSeconds(30);
    private Topology topology;

    @BeforeAll
    void start() {
        long begin = System.nanoTime();
        topology = Topology.start(TopologySpec.builder()
                .shard("s0", Engine.INNODB, 1)
                .shard("s1", Engine.ROCKSDB, 1)
                .build());
        System.out.printf("TopologyIT: 2 shards x (1 primary + 1 replica) up in %.2f s%n",
                (System.nanoTime() - begin) / 1e9);
        for (Shard shard : topology.shards()) {
            shard.primary().execute("CREATE DATABASE IF NOT EXISTS it",
                    "CREATE TABLE it.t (id INT PRIMARY KEY, note VARCHAR(40))");
        }
        topology.awaitReplication(CATCH_UP);
    }

    @AfterAll
    void stop() {
        if (topology != null) {
            topology.close();
            assertThat(Files.exists(topology.baseDir())).as("topology directory removed").isFalse();
        }
    }

    @Test
    @Order(1)
    void rowWrittenOnEachPrimaryAppearsOnItsReplica() {
        for (Shard shard : topology.shards()) {
            shard.primary().execute("INSERT INTO it.t VALUES (1, 'from " + shard.name() + "')");
            String gtid = shard.primary().gtidBinlogPos();
            Node replica = shard.replica(0);
            assertThat(replica.awaitGtid(gtid, CATCH_UP)).as(replica.name() + " reaches " + gtid).isTrue();
            assertThat(replica.queryString("SELECT note FROM it.t WHERE id = 1")).isEqualTo("from " + shard.name());
            assertThat(replica.serverId()).isNotEqualTo(shard.primary().serverId());
        }
    }

    @Test
    @Order(2)
    void myRocksShardCreatesRocksDbTables() {
        assertThat(topology.shard("s1").primary().engine()).isEqualTo(Engine.ROCKSDB);
        for (Node node : new Node[] {topology.shard("s1").primary(), topology.shard("s1").replica(0)}) {
            assertThat(showCreate(node, "it.t")).as(node.name()).contains("ENGINE=ROCKSDB");
        }
        assertThat(showCreate(topology.shard("s0").primary(), "it.t")).contains("ENGINE=InnoDB");
    }

    @Test
    @Order(3)
    void replicaWithStoppedSqlThreadMissesWritesThenCatchesUp() {
        Shard shard = topology.shard("s0");
        Node replica = shard.replica(0);
        replica.stopSqlThread();
        shard.primary().execute("INSERT INTO it.t VALUES (2, 'while stopped')");
        String written = shard.primary().gtidBinlogPos();
        // The IO thread still fetches the event, so the replica misses the row only because its SQL thread is stopped.
        assertThat(awaitIoThreadReceived(replica, written)).as("IO thread received " + written).isTrue();
        assertThat(replica.queryString("SELECT COUNT(*) FROM it.t WHERE id = 2")).isEqualTo("0");
        assertThat(replica.awaitGtid(written, Duration.ofMillis(300))).isFalse();

        replica.startSqlThread();
        assertThat(replica.awaitGtid(written, CATCH_UP)).isTrue();
        assertThat(replica.queryString("SELECT note FROM it.t WHERE id = 2")).isEqualTo("while stopped");
    }

    @Test
    @Order(4)
    void readLockBlocksApplyWhileTheSqlThreadStillRuns() {
        Shard shard = topology.shard("s1");
        Node replica = shard.replica(0);
        String written;
        try (Node.Block ignored = replica.blockWithReadLock()) {
            shard.primary().execute("INSERT INTO it.t VALUES (3, 'while blocked')");
            written = shard.primary().gtidBinlogPos();
            assertThat(replica.awaitGtid(written, Duration.ofMillis(500))).isFalse();
            assertThat(replica.replicaStatus().get("Slave_SQL_Running")).isEqualTo("Yes");
        }
        assertThat(replica.awaitGtid(written, CATCH_UP)).isTrue();
    }

    @Test
    @Order(5)
    void frozenReplicaAnswersNothingUntilThawed() throws SQLException {
        Node replica = topology.shard("s0").replica(0);
        replica.freeze();
        try {
            assertThatThrownBy(() -> {
                try (Connection c = java.sql.DriverManager.getConnection(
                        "jdbc:mariadb://" + replica.address() + "/?connectTimeout=500&socketTimeout=500",
                        topology.accounts().user(), topology.accounts().password())) {
                    c.createStatement().executeQuery("SELECT 1");
                }
            }).isInstanceOf(SQLException.class);
        } finally {
            replica.thaw();
        }
        try (Connection c = replica.connect(); Statement s = c.createStatement()) {
            assertThat(s.executeQuery("SELECT 1").next()).isTrue();
        }
    }

    @Test
    @Order(6)
    void killedPrimaryRestartsAndItsReplicaResumes() {
        Shard shard = topology.shard("s1");
        long oldPid = shard.primary().pid();
        shard.primary().kill();
        assertThat(shard.primary().isAlive()).isFalse();
        assertThat(ProcessHandle.of(oldPid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        shard.primary().restart();
        assertThat(shard.primary().pid()).isNotEqualTo(oldPid);
        // Committed before the kill, so crash recovery must keep it.
        assertThat(shard.primary().queryString("SELECT note FROM it.t WHERE id = 3")).isEqualTo("while blocked");
        shard.primary().execute("INSERT INTO it.t VALUES (4, 'after restart')");
        assertThat(shard.replica(0).awaitGtid(shard.primary().gtidBinlogPos(), CATCH_UP)).isTrue();
        assertThat(shard.replica(0).queryString("SELECT note FROM it.t WHERE id = 4")).isEqualTo("after restart");
    }

    private static String showCreate(Node node, String table) {
        try (Connection c = node.connect(); Statement s = c.createStatement();
             var rows = s.executeQuery("SHOW CREATE TABLE " + table)) {
            assertThat(rows.next()).isTrue();
            return rows.getString(2);
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    /** Waits until the replica's IO thread has received {@code gtid} (Gtid_IO_Pos). */
    private static boolean awaitIoThreadReceived(Node replica, String gtid) {
        long deadline = System.nanoTime() + CATCH_UP.toNanos();
        while (System.nanoTime() < deadline) {
            if (gtid.equals(replica.replicaStatus().get("Gtid_IO_Pos"))) {
                return true;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
        }
        return false;
    }
}
