package io.shardgate.it;

import io.shardgate.proxy.error.ErrorTranslator;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Shard;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Shardgate proxy in front of a topology (or some of its shards), on free ports, started from the
 * packaged jar as {@code ./shardgate run --config FILE} starts it (a child process, see
 * {@link JarProxy}; its output is in {@code integration-tests/target/proxy-logs}). Client user
 * {@code app}/{@code app}; extra top-level YAML (limits, users, schemas, transactions) can be
 * appended, and keys such as {@code key_range} added to each shard. A config the proxy refuses
 * throws the {@code ConfigException} it printed.
 */
final class ProxyFixture implements AutoCloseable {
    static final String USER = "app";
    static final String PASSWORD = "app";
    static final String ADMIN_TOKEN = "test-admin-token";

    private final JarProxy proxy;
    private final Topology ownTopology;

    private ProxyFixture(JarProxy proxy, Topology ownTopology) {
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
            return new ProxyFixture(startProxy(topology, allShards(topology), extraYaml), topology);
        } catch (RuntimeException e) {
            topology.close();
            throw e;
        }
    }

    Topology topology() {
        return ownTopology;
    }

    /** Shards s0 and s1 owning the two halves of the keyspace, as the sharded tests configure them. */
    static final Map<String, Map<String, String>> HALVES = halves();

    private static Map<String, Map<String, String>> halves() {
        Map<String, Map<String, String>> shards = new LinkedHashMap<>();
        shards.put("s0", Map.of("key_range", "-80"));
        shards.put("s1", Map.of("key_range", "80-"));
        return java.util.Collections.unmodifiableMap(shards);
    }

    /** A proxy in front of every shard of {@code topology}, in the topology's order. */
    static ProxyFixture start(Topology topology, String extraYaml) {
        return start(topology, allShards(topology), extraYaml);
    }

    /**
     * A proxy in front of only the shards {@code shardKeys} names, in its iteration order (use a
     * {@link LinkedHashMap}): the other shards of {@code topology} stay out of the config, for
     * example a standalone server used as a test oracle. Each shard's map adds keys to its config
     * entry, such as {@code key_range}; values are written as quoted YAML strings. {@code extraYaml}
     * is appended at the top level ({@code schemas:}, {@code limits:}, ...).
     */
    static ProxyFixture start(Topology topology, Map<String, Map<String, String>> shardKeys, String extraYaml) {
        return new ProxyFixture(startProxy(topology, shardKeys, extraYaml), null);
    }

    private static Map<String, Map<String, String>> allShards(Topology topology) {
        Map<String, Map<String, String>> shards = new LinkedHashMap<>();
        topology.shards().forEach(shard -> shards.put(shard.name(), Map.of()));
        return shards;
    }

    private static JarProxy startProxy(Topology topology, Map<String, Map<String, String>> shardKeys, String extraYaml) {
        JarProxy proxy = JarProxy.start(config(topology, shardKeys, extraYaml));
        System.out.printf("[proxy-fixture] packaged proxy listening after %d ms (%s)%n", proxy.startup().toMillis(), proxy.log());
        return proxy;
    }

    /**
     * The YAML config {@link #start(Topology, Map, String)} gives its proxy (listener and admin on
     * free ports), for a proxy started another way, such as {@code ./shardgate run --config FILE}.
     */
    static String config(Topology topology, Map<String, Map<String, String>> shardKeys, String extraYaml) {
        if (shardKeys.isEmpty()) {
            throw new IllegalArgumentException("shardKeys: name at least one shard of the topology");
        }
        StringBuilder yaml = new StringBuilder()
                .append("listen: { host: 127.0.0.1, port: 0 }\n")
                .append("admin: { host: 127.0.0.1, port: 0, token: ").append(ADMIN_TOKEN).append(" }\n")
                .append("backend_user: { name: ").append(topology.accounts().user())
                .append(", password: \"").append(topology.accounts().password()).append("\" }\n")
                .append("shards:\n");
        for (Map.Entry<String, Map<String, String>> entry : shardKeys.entrySet()) {
            Shard shard = topology.shard(entry.getKey());
            yaml.append("  - name: ").append(shard.name()).append('\n')
                    .append("    engine: ").append(shard.engine().configName()).append('\n')
                    .append("    primary: ").append(shard.primary().address()).append('\n');
            if (!shard.replicas().isEmpty()) {
                yaml.append("    replicas: [").append(String.join(", ", shard.replicas().stream().map(Node::address).toList()))
                        .append("]\n");
            }
            entry.getValue().forEach((key, value) -> yaml.append("    ").append(key).append(": ").append(quoted(value)).append('\n'));
        }
        if (!extraYaml.contains("users:")) {
            yaml.append("users:\n  - { name: ").append(USER).append(", password: ").append(PASSWORD).append(" }\n");
        }
        yaml.append(extraYaml);
        return yaml.toString();
    }

    /** {@code value} as a double-quoted YAML scalar. */
    private static String quoted(String value) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                default -> out.append(c);
            }
        }
        return out.append('"').toString();
    }

    int port() {
        return proxy.port();
    }

    int adminPort() {
        return proxy.adminPort();
    }

    /** Everything the proxy printed so far (stdout and stderr). */
    String output() {
        return proxy.output();
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

    /** Stops {@code proxy}, then {@code topology}; either may be null when its start failed. */
    static void stop(ProxyFixture proxy, Topology topology) {
        try {
            if (proxy != null) {
                proxy.close();
            }
        } finally {
            if (topology != null) {
                topology.close();
            }
        }
    }

    /**
     * Stops the proxy (and its own topology), then fails if the proxy answered any statement with an
     * internal error (ERR 1105 "Internal error in Shardgate"): each one is a bug, whatever the test
     * asserted (issue 16). The proxy logs each with its stack trace, in {@link #output()}.
     */
    @Override
    public void close() {
        proxy.close();
        if (ownTopology != null) {
            ownTopology.close();
        }
        List<String> internal = proxy.output().lines().filter(line -> line.contains(ErrorTranslator.INTERNAL_ERROR_LOG)).toList();
        if (!internal.isEmpty()) {
            throw new AssertionError(internal.size() + " internal error(s) (ERR 1105) in the proxy's log " + proxy.log()
                    + "; the first: " + internal.get(0));
        }
    }
}
