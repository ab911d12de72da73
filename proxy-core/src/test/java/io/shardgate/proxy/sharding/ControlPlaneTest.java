package io.shardgate.proxy.sharding;

import com.zaxxer.hikari.HikariDataSource;
import io.shardgate.proxy.config.HostPort;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The control plane follows a shard's primary when a topology change replaces it (no connection is opened here). */
class ControlPlaneTest {
    @Test
    void aHeldDataSourceFollowsTheReplacedPrimary() throws Exception {
        Map<String, HostPort> primaries = new LinkedHashMap<>();
        primaries.put("s0", new HostPort("127.0.0.1", 24001));
        primaries.put("s1", new HostPort("127.0.0.1", 24002));
        try (ControlPlane plane = new ControlPlane(primaries, "shardgate", "secret")) {
            DataSource held = plane.dataSource("s0");
            HikariDataSource before = held.unwrap(HikariDataSource.class);
            assertThat(before.getJdbcUrl()).contains(":24001/");

            plane.replacePrimary("s0", new HostPort("127.0.0.1", 24009));
            assertThat(before.isClosed()).as("the old primary's pool closes").isTrue();
            assertThat(held.unwrap(HikariDataSource.class).getJdbcUrl()).as("the same data source, the new primary").contains(":24009/");
            assertThat(plane.dataSource("s0")).isSameAs(held);
            assertThat(plane.dataSource("s1").unwrap(HikariDataSource.class).getJdbcUrl()).contains(":24002/");
            plane.replacePrimary("s7", new HostPort("127.0.0.1", 1)); // a shard it does not serve: nothing happens
            assertThat(plane.shards()).containsExactly("s0", "s1");
        }
    }

    @Test
    void aRemovedShardsPoolClosesAndRecoveryNoLongerReachesItUntilItIsAddedAgain() throws Exception {
        Map<String, HostPort> primaries = new LinkedHashMap<>();
        primaries.put("s0", new HostPort("127.0.0.1", 24001));
        try (ControlPlane plane = new ControlPlane(primaries, "shardgate", "secret")) {
            plane.addShard("s8", new HostPort("127.0.0.1", 24008));
            HikariDataSource pool = plane.dataSource("s8").unwrap(HikariDataSource.class);
            plane.removeShard("s8");
            assertThat(pool.isClosed()).isTrue();
            assertThat(plane.shards()).containsExactly("s0");
            assertThatThrownBy(() -> plane.dataSource("s8")).hasMessageContaining("unknown shard 's8'");
            plane.addShard("s8", new HostPort("127.0.0.1", 24018));
            assertThat(plane.dataSource("s8").unwrap(HikariDataSource.class).getJdbcUrl()).contains(":24018/");
        }
    }
}
