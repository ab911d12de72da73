package io.shardgate.storage.it;

import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.storage.CapabilityProbe;
import io.shardgate.storage.Engine;
import io.shardgate.storage.EngineMissingException;
import io.shardgate.storage.capability.BinlogFormat;
import io.shardgate.storage.capability.EngineCapabilities;
import io.shardgate.storage.capability.IsolationLevel;
import io.shardgate.storage.capability.ServerFactsReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.EnumSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Capabilities probed from live servers (an InnoDB and a MyRocks shard), the refusal of a server
 * that lacks the shard's engine, and the facts behind the known-per-engine entries: MyRocks
 * refuses SERIALIZABLE and READ UNCOMMITTED (4057) and STATEMENT binlog DML (1665).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CapabilityProbeIT {
    private EngineShards shards;
    private Topology topology;
    private Node innodb;
    private Node rocksdb;
    private CapabilityProbe probe;

    @BeforeAll
    void start() {
        shards = EngineShards.start();
        topology = shards.topology();
        innodb = shards.innodb();
        rocksdb = shards.rocksdb();
        probe = new CapabilityProbe(shards.adapters(), new ServerFactsReader(), Duration.ofSeconds(2), Duration.ofSeconds(10));
    }

    @AfterAll
    void stop() {
        if (shards != null) {
            shards.close();
        }
    }

    @Test
    void innodbCapabilitiesComeFromTheServer() throws SQLException {
        EngineCapabilities caps = probe.probe(Backends.of(topology, innodb));
        assertThat(caps.engine()).isEqualTo(Engine.INNODB);
        assertThat(caps.serverVersion()).startsWith("10.11.");
        assertThat(caps.transactions().isolationLevels()).isEqualTo(EnumSet.allOf(IsolationLevel.class));
        assertThat(caps.transactions().lockWaitTimeout())
                .isEqualTo(Duration.ofSeconds(Long.parseLong(innodb.queryString("SELECT @@innodb_lock_wait_timeout"))));
        assertThat(caps.schema().keyBlockSizes()).containsExactly(1, 2, 4, 8, 16);
        assertThat(caps.compression().current()).isEqualTo(innodb.queryString("SELECT @@innodb_compression_algorithm"));
        assertThat(caps.compression().available()).contains("none", "zlib");
        assertThat(caps.describe()).containsEntry("engine", "innodb");
    }

    @Test
    void myRocksCapabilitiesComeFromTheServer() throws SQLException {
        EngineCapabilities caps = probe.probe(Backends.of(topology, rocksdb));
        assertThat(caps.engine()).isEqualTo(Engine.ROCKSDB);
        assertThat(caps.transactions().rowLockLimit())
                .hasValue(Long.parseLong(rocksdb.queryString("SELECT @@rocksdb_max_row_locks")));
        assertThat(caps.transactions().binlogFormats()).isEqualTo(EnumSet.of(BinlogFormat.ROW, BinlogFormat.MIXED));
        assertThat(caps.compression().available()).contains("LZ4", "Zlib");
        assertThat(caps.columnFamilies().families()).extracting(f -> f.name()).contains("default", "__system__");
        assertThat(caps.schema().foreignKeys()).isFalse();
    }

    @Test
    void aServerWithoutTheShardsEngineIsRefused() {
        assertThatThrownBy(() -> probe.probe(Backends.as(topology, innodb, Engine.ROCKSDB)))
                .isInstanceOf(EngineMissingException.class)
                .hasMessage("shard s0: the server at " + innodb.address() + " lacks the engine ROCKSDB"
                        + " (information_schema.ENGINES: absent); load it with plugin_load_add=ha_rocksdb"
                        + " or change the shard's engine");
    }

    @Test
    void myRocksRefusesTheIsolationLevelsItLacks() throws SQLException {
        rocksdb.execute("CREATE DATABASE IF NOT EXISTS iso", "CREATE TABLE IF NOT EXISTS iso.t (id INT PRIMARY KEY)");
        EngineCapabilities caps = probe.probe(Backends.of(topology, rocksdb));
        for (IsolationLevel level : IsolationLevel.values()) {
            try (Connection connection = rocksdb.connect(); Statement statement = connection.createStatement()) {
                statement.execute("SET SESSION TRANSACTION ISOLATION LEVEL " + level.sql());
                statement.execute("BEGIN");
                try {
                    statement.executeQuery("SELECT COUNT(*) FROM iso.t").close();
                    assertThat(caps.transactions().isolationLevels()).as(level.sql()).contains(level);
                } catch (SQLException e) {
                    assertThat(e.getErrorCode()).as(level.sql()).isEqualTo(4057);
                    assertThat(caps.transactions().isolationLevels()).as(level.sql()).doesNotContain(level);
                }
            }
        }
    }

    @Test
    void myRocksRefusesStatementBinlogDml() throws SQLException {
        rocksdb.execute("CREATE DATABASE IF NOT EXISTS fmt", "CREATE TABLE IF NOT EXISTS fmt.t (id INT PRIMARY KEY)");
        EngineCapabilities caps = probe.probe(Backends.of(topology, rocksdb));
        for (BinlogFormat format : BinlogFormat.values()) {
            try (Connection connection = rocksdb.connect(); Statement statement = connection.createStatement()) {
                statement.execute("SET SESSION binlog_format = " + format);
                try {
                    statement.execute("INSERT INTO fmt.t VALUES (" + (format.ordinal() + 1) + ")");
                    assertThat(caps.transactions().binlogFormats()).as(format.name()).contains(format);
                } catch (SQLException e) {
                    assertThat(e.getErrorCode()).as(format.name()).isEqualTo(1665);
                    assertThat(caps.transactions().binlogFormats()).as(format.name()).doesNotContain(format);
                }
            }
        }
    }
}
