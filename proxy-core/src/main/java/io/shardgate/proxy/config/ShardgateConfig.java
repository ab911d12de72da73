package io.shardgate.proxy.config;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The whole proxy configuration, validated. See docs/configuration.md for every key.
 *
 * @param listen        where clients connect
 * @param admin         the admin HTTP API
 * @param serverVersion the version string sent in the handshake
 * @param users         client accounts
 * @param backendUser   the account Shardgate connects to every backend with
 * @param shards        the shards, in config order
 * @param limits        resource limits
 * @param tls           client TLS material
 * @param allowLocalInfile whether LOAD DATA LOCAL INFILE is offered to clients
 * @param routing       read/write split settings
 * @param sharding      the sharding schema (schemas, tables, vindexes, key ranges); empty: no sharding
 * @param transactions  how a transaction writing to several shards commits
 * @param health        how backend health is judged
 * @param digests       query digest statistics
 * @param schemaTracking how the tables' columns are kept current (sharded deployments)
 * @param ddl           when a DDL that blocks writes runs without the session's flag
 * @param topology      where the topology lives (file or etcd), and the one this file holds; {@code shards},
 *                      {@code routing} and {@code sharding} are that one's, as the proxy starts
 */
public record ShardgateConfig(HostPort listen, AdminConfig admin, String serverVersion, List<UserConfig> users,
                              BackendUser backendUser, List<ShardConfig> shards, LimitsConfig limits, TlsConfig tls,
                              boolean allowLocalInfile, RoutingConfig routing,
                              java.util.Optional<io.shardgate.router.schema.ShardingSchema> sharding,
                              TransactionsConfig transactions, HealthConfig health, DigestsConfig digests,
                              SchemaTrackingConfig schemaTracking, DdlConfig ddl, TopologyConfig topology) {
    public ShardgateConfig {
        requireNonNull(listen, "listen is null");
        requireNonNull(admin, "admin is null");
        requireNonNull(serverVersion, "serverVersion is null");
        users = List.copyOf(requireNonNull(users, "users is null"));
        requireNonNull(backendUser, "backendUser is null");
        shards = List.copyOf(requireNonNull(shards, "shards is null"));
        requireNonNull(limits, "limits is null");
        requireNonNull(tls, "tls is null");
        requireNonNull(routing, "routing is null");
        requireNonNull(sharding, "sharding is null");
        requireNonNull(transactions, "transactions is null");
        requireNonNull(health, "health is null");
        requireNonNull(digests, "digests is null");
        requireNonNull(schemaTracking, "schemaTracking is null");
        requireNonNull(ddl, "ddl is null");
        requireNonNull(topology, "topology is null");
    }

    /**
     * The same config serving {@code document}'s topology (the store's, which may differ from the file's): its shards,
     * routing settings and sharding schema.
     */
    public ShardgateConfig withTopology(io.shardgate.proxy.topology.TopologyDocument document) {
        if (document.shards().stream().noneMatch(shard -> shard.name().equals(transactions.decisionShard()))) {
            throw new ConfigException("transactions.decision_shard: '" + transactions.decisionShard()
                    + "' is not a shard of the topology the store holds");
        }
        return new ShardgateConfig(listen, admin, serverVersion, users, backendUser, document.shards(), limits, tls, allowLocalInfile,
                document.routing(), document.sharding(), transactions, health, digests, schemaTracking, ddl, topology);
    }

    /** The same config, loaded from {@code file}: with the file store, admin writes go back to it. */
    public ShardgateConfig loadedFrom(java.nio.file.Path file) {
        return new ShardgateConfig(listen, admin, serverVersion, users, backendUser, shards, limits, tls, allowLocalInfile, routing,
                sharding, transactions, health, digests, schemaTracking, ddl, topology.from(file));
    }

    public record AdminConfig(HostPort listen, String token) {
        public AdminConfig {
            requireNonNull(listen, "listen is null");
            requireNonNull(token, "token is null");
        }
    }

    public record BackendUser(String name, String password) {
        public BackendUser {
            requireNonNull(name, "name is null");
            requireNonNull(password, "password is null");
        }

        @Override
        public String toString() {
            return "BackendUser[" + name + "]";
        }
    }
}
