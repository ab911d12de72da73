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
 */
public record ShardgateConfig(HostPort listen, AdminConfig admin, String serverVersion, List<UserConfig> users,
                              BackendUser backendUser, List<ShardConfig> shards, LimitsConfig limits, TlsConfig tls,
                              boolean allowLocalInfile, RoutingConfig routing,
                              java.util.Optional<io.shardgate.router.schema.ShardingSchema> sharding,
                              TransactionsConfig transactions, HealthConfig health, DigestsConfig digests,
                              SchemaTrackingConfig schemaTracking, DdlConfig ddl) {
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
    }

    /** A config with the default bounds for blocking DDL. */
    public ShardgateConfig(HostPort listen, AdminConfig admin, String serverVersion, List<UserConfig> users,
                           BackendUser backendUser, List<ShardConfig> shards, LimitsConfig limits, TlsConfig tls,
                           boolean allowLocalInfile, RoutingConfig routing,
                           java.util.Optional<io.shardgate.router.schema.ShardingSchema> sharding,
                           TransactionsConfig transactions, HealthConfig health, DigestsConfig digests,
                           SchemaTrackingConfig schemaTracking) {
        this(listen, admin, serverVersion, users, backendUser, shards, limits, tls, allowLocalInfile, routing, sharding,
                transactions, health, digests, schemaTracking, DdlConfig.DEFAULTS);
    }

    /** A config with the default schema tracking. */
    public ShardgateConfig(HostPort listen, AdminConfig admin, String serverVersion, List<UserConfig> users,
                           BackendUser backendUser, List<ShardConfig> shards, LimitsConfig limits, TlsConfig tls,
                           boolean allowLocalInfile, RoutingConfig routing,
                           java.util.Optional<io.shardgate.router.schema.ShardingSchema> sharding,
                           TransactionsConfig transactions, HealthConfig health, DigestsConfig digests, DdlConfig ddl) {
        this(listen, admin, serverVersion, users, backendUser, shards, limits, tls, allowLocalInfile, routing, sharding,
                transactions, health, digests, SchemaTrackingConfig.DEFAULTS, ddl);
    }

    /** A config with the default schema tracking and bounds for blocking DDL. */
    public ShardgateConfig(HostPort listen, AdminConfig admin, String serverVersion, List<UserConfig> users,
                           BackendUser backendUser, List<ShardConfig> shards, LimitsConfig limits, TlsConfig tls,
                           boolean allowLocalInfile, RoutingConfig routing,
                           java.util.Optional<io.shardgate.router.schema.ShardingSchema> sharding,
                           TransactionsConfig transactions, HealthConfig health, DigestsConfig digests) {
        this(listen, admin, serverVersion, users, backendUser, shards, limits, tls, allowLocalInfile, routing, sharding,
                transactions, health, digests, SchemaTrackingConfig.DEFAULTS, DdlConfig.DEFAULTS);
    }

    /** A config with the default digest statistics. */
    public ShardgateConfig(HostPort listen, AdminConfig admin, String serverVersion, List<UserConfig> users,
                           BackendUser backendUser, List<ShardConfig> shards, LimitsConfig limits, TlsConfig tls,
                           boolean allowLocalInfile, RoutingConfig routing,
                           java.util.Optional<io.shardgate.router.schema.ShardingSchema> sharding,
                           TransactionsConfig transactions, HealthConfig health) {
        this(listen, admin, serverVersion, users, backendUser, shards, limits, tls, allowLocalInfile, routing, sharding,
                transactions, health, DigestsConfig.DEFAULTS);
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
