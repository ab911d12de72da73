package io.shardgate.it;

import io.shardgate.proxy.ShardgateProxy;
import io.shardgate.proxy.config.ConfigLoader;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Shard;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;

/**
 * A Shardgate proxy running in this JVM in front of a topology, on free ports. Client user
 * {@code app}/{@code app}; extra YAML (limits, users) can be appended.
 */
final class ProxyFixture implements AutoCloseable {
    static final String USER = "app";
    static final String PASSWORD = "app";
    static final String ADMIN_TOKEN = "test-admin-token";

    private final ShardgateProxy proxy;
    private final Topology ownTopology;

    private ProxyFixture(ShardgateProxy proxy, Topology ownTopology) {
        this.proxy = proxy;
        this.ownTopology = ownTopology;
    }

    /**
     * A proxy in front of a topology of its own: one InnoDB primary with {@code serverOptions},
     * prepared with {@code setupSql} (run on the primary directly, on one connection); closing the
     * fixture stops both.
     */
    static ProxyFixture withOwnShard(Map<String, String> serverOptions, String extraYaml, String... setupSql) {
        TopologySpec.Builder spec = TopologySpec.builder().shard("s0", Engine.INNODB, 0);
        serverOptions.forEach(spec::serverOption);
        Topology topology = Topology.start(spec.build());
        try {
            if (setupSql.length > 0) {
                topology.shard("s0").primary().execute(setupSql);
            }
            return new ProxyFixture(startProxy(topology, extraYaml), topology);
        } catch (RuntimeException e) {
            topology.close();
            throw e;
        }
    }

    Topology topology() {
        return ownTopology;
    }

    static ProxyFixture start(Topology topology, String extraYaml) {
        return new ProxyFixture(startProxy(topology, extraYaml), null);
    }

    private static ShardgateProxy startProxy(Topology topology, String extraYaml) {
        StringBuilder yaml = new StringBuilder()
                .append("listen: { host: 127.0.0.1, port: 0 }\n")
                .append("admin: { host: 127.0.0.1, port: 0, token: ").append(ADMIN_TOKEN).append(" }\n")
                .append("backend_user: { name: ").append(topology.accounts().user())
                .append(", password: \"").append(topology.accounts().password()).append("\" }\n")
                .append("shards:\n");
        for (Shard shard : topology.shards()) {
            yaml.append("  - name: ").append(shard.name()).append('\n')
                    .append("    engine: ").append(shard.engine().configName()).append('\n')
                    .append("    primary: ").append(shard.primary().address()).append('\n');
            if (!shard.replicas().isEmpty()) {
                yaml.append("    replicas: [").append(String.join(", ", shard.replicas().stream().map(Node::address).toList()))
                        .append("]\n");
            }
        }
        if (!extraYaml.contains("users:")) {
            yaml.append("users:\n  - { name: ").append(USER).append(", password: ").append(PASSWORD).append(" }\n");
        }
        yaml.append(extraYaml);
        try {
            return ShardgateProxy.start(new ConfigLoader().parse(yaml.toString()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    int port() {
        return proxy.port();
    }

    ShardgateProxy proxy() {
        return proxy;
    }

    int adminPort() {
        return proxy.adminPort();
    }

    String mariadbUrl(String schema, String options) {
        return "jdbc:mariadb://127.0.0.1:" + port() + "/" + schema + "?" + options;
    }

    String mysqlUrl(String schema, String options) {
        return "jdbc:mysql://127.0.0.1:" + port() + "/" + schema + "?" + options;
    }

    Connection mariadb(String schema, String options) throws SQLException {
        return DriverManager.getConnection(mariadbUrl(schema, options), USER, PASSWORD);
    }

    Connection mysql(String schema, String options) throws SQLException {
        return DriverManager.getConnection(mysqlUrl(schema, options), USER, PASSWORD);
    }

    @Override
    public void close() {
        proxy.close();
        if (ownTopology != null) {
            ownTopology.close();
        }
    }
}
