package io.shardgate.it;

import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;

/**
 * Issue 16's fuzzer ({@link PacketFuzzer}) against a sharded proxy, an InnoDB shard and a MyRocks
 * shard: statements planned across both, prepared statements executed by the plan workers, the
 * rest on the first shard.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShardedPacketFuzzIT {
    private Topology topology;
    private ProxyFixture proxy;

    @BeforeAll
    void start() throws Exception {
        topology = Topology.start(TopologySpec.builder()
                .shard("s0", Engine.INNODB, 0)
                .shard("s1", Engine.ROCKSDB, 0)
                .build());
        for (String shard : List.of("s0", "s1")) {
            topology.shard(shard).primary().execute("CREATE DATABASE fuzz",
                    "CREATE TABLE fuzz.t (id INT PRIMARY KEY, v VARCHAR(100))",
                    "CREATE TABLE fuzz.w (id INT AUTO_INCREMENT PRIMARY KEY, v VARBINARY(255))",
                    "CREATE TABLE fuzz.bystander (id INT PRIMARY KEY)");
        }
        proxy = ProxyFixture.start(topology, ProxyFixture.HALVES, PacketFuzzer.LIMITS_AND_USERS + """
                schemas:
                  - name: fuzz
                    tables:
                      t: { shard_key: id, vindex: hash }
                      w: { type: unsharded, shard: s0 }
                      bystander: { type: unsharded, shard: s0 }
                """);
        try (Connection loader = proxy.mariadb("fuzz", ""); PreparedStatement insert = loader.prepareStatement(
                "INSERT INTO t (id, v) VALUES (?, ?)")) {
            for (int i = 1; i <= 40; i++) {
                insert.setInt(1, i);
                insert.setString(2, "v" + i);
                insert.executeUpdate();
            }
        }
    }

    @AfterAll
    void stop() {
        ProxyFixture.stop(proxy, topology);
    }

    @Test
    void malformedPacketsLeaveNoHangNoLeakAndTheBystanderUntouched() throws Exception {
        PacketFuzzer.run(proxy, PacketFuzzer.SHARDED_CASES, true);
    }
}
