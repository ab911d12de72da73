package io.shardgate.proxy.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.proxy.topology.TopologyDocument;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.shardgate.storage.Engine;
import io.shardgate.storage.StorageAdapters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/** Reads and validates the YAML config; every error names its key. */
public final class ConfigLoader {
    public static final String DEFAULT_SERVER_VERSION = "10.11.19-MariaDB-shardgate";

    private final ObjectMapper json = new ObjectMapper();
    private final ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
    private final StorageAdapters adapters;

    /** A loader that knows the engines of the storage adapters on this class's class path. */
    public ConfigLoader() {
        this(StorageAdapters.load(ConfigLoader.class.getClassLoader()));
    }

    /** A loader whose shards may name the engines of {@code adapters}. */
    public ConfigLoader(StorageAdapters adapters) {
        this.adapters = requireNonNull(adapters, "adapters is null");
    }

    public ShardgateConfig load(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot read (" + e.getMessage() + ")");
        }
        return parse(text).loadedFrom(file);
    }

    /**
     * A topology document from a store (JSON with the config file's topology keys), validated as the
     * config file's sections are; throws {@link ConfigException} naming the key at fault.
     */
    public TopologyDocument topology(String json) {
        JsonNode tree;
        try {
            tree = this.json.readTree(json);
        } catch (JsonProcessingException e) {
            throw new ConfigException("topology: not valid JSON: " + e.getOriginalMessage());
        }
        ConfigNode root = new ConfigNode(tree, "");
        if (root.isMissing() || !tree.isObject()) {
            throw new ConfigException("topology: expected a JSON object");
        }
        root.requireObject(Set.copyOf(TopologyDocument.KEYS));
        return topology(root, tree);
    }

    private TopologyDocument topology(ConfigNode root, JsonNode tree) {
        List<ShardConfig> shards = shards(root.get("shards"), adapters);
        RoutingConfig routing = routing(root.get("routing"));
        Optional<io.shardgate.router.schema.ShardingSchema> sharding =
                ShardingConfigParser.parse(root.get("schemas"), root.get("shards"), shards);
        ObjectNode canonical = json.createObjectNode();
        for (String key : TopologyDocument.KEYS) {
            if (tree.hasNonNull(key)) {
                canonical.set(key, tree.get(key).deepCopy());
            }
        }
        return new TopologyDocument(canonical, shards, routing, sharding, TopologySections.states(root.get("backend_states"), shards),
                TopologySections.history(root.get("topology_history")), TopologySections.holds(root.get("write_holds"), shards));
    }

    public ShardgateConfig parse(String text) {
        JsonNode tree;
        try {
            tree = yaml.readTree(text);
        } catch (JsonProcessingException e) {
            throw new ConfigException("config: not valid YAML: " + e.getOriginalMessage()
                    + (e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr()));
        }
        ConfigNode root = new ConfigNode(tree, "");
        if (root.isMissing()) {
            throw new ConfigException("config: the file is empty");
        }
        root.requireObject(Set.of("listen", "admin", "server_version", "users", "backend_user", "shards", "limits",
                "tls", "allow_local_infile", "routing", "schemas", "transactions", "health", "digests", "schema_tracking",
                "ddl", "topology", "backend_states", "write_holds", "topology_history", "topology_version"));
        // Sections are read in file-documentation order, so the first error reported is the first one a reader meets.
        HostPort listen = listen(root.get("listen"), 3307);
        ShardgateConfig.AdminConfig admin = admin(root.get("admin"));
        String serverVersion = root.get("server_version").optionalString().orElse(DEFAULT_SERVER_VERSION);
        List<UserConfig> users = users(root.get("users"));
        ShardgateConfig.BackendUser backendUser = backendUser(root.get("backend_user"));
        TopologyDocument document = topology(root, tree);
        List<ShardConfig> shards = document.shards();
        LimitsConfig limits = limits(root.get("limits"));
        TlsConfig tls = tls(root.get("tls"));
        boolean allowLocalInfile = root.get("allow_local_infile").booleanValue(false);
        return new ShardgateConfig(listen, admin, serverVersion, users, backendUser, shards, limits, tls, allowLocalInfile,
                document.routing(), document.sharding(),
                transactions(root.get("transactions"), shards),
                health(root.get("health")),
                digests(root.get("digests")),
                schemaTracking(root.get("schema_tracking")), ddl(root.get("ddl")),
                TopologySections.config(root.get("topology"), document, root.get("topology_version").longValue(1, 1, Long.MAX_VALUE)));
    }

    private static SchemaTrackingConfig schemaTracking(ConfigNode node) {
        node.requireObject(Set.of("check_interval_ms"));
        return new SchemaTrackingConfig(Duration.ofMillis(node.get("check_interval_ms").longValue(
                SchemaTrackingConfig.DEFAULTS.checkInterval().toMillis(), 0, 86_400_000)));
    }

    private static DdlConfig ddl(ConfigNode node) {
        node.requireObject(Set.of("blocking_max_rows", "blocking_max_bytes"));
        DdlConfig d = DdlConfig.DEFAULTS;
        return new DdlConfig(node.get("blocking_max_rows").longValue(d.blockingMaxRows(), 0, Long.MAX_VALUE),
                node.get("blocking_max_bytes").longValue(d.blockingMaxBytes(), 0, Long.MAX_VALUE));
    }

    private static DigestsConfig digests(ConfigNode node) {
        node.requireObject(Set.of("enabled", "max_entries", "metrics_top"));
        DigestsConfig d = DigestsConfig.DEFAULTS;
        return new DigestsConfig(node.get("enabled").booleanValue(d.enabled()),
                node.get("max_entries").intValue(d.maxEntries(), 1, 10_000_000),
                node.get("metrics_top").intValue(d.metricsTop(), 0, 1000));
    }

    static RoutingConfig routing(ConfigNode node) {
        node.requireObject(Set.of("max_replica_lag_ms", "fallback", "causal_reads", "causal_wait_ms", "lag_poll_interval_ms"));
        RoutingConfig d = RoutingConfig.DEFAULTS;
        return new RoutingConfig(
                node.get("max_replica_lag_ms").longValue(d.maxReplicaLagMs(), 0, 86_400_000),
                choice(node.get("fallback"), RoutingConfig.Fallback.class, d.fallback()),
                choice(node.get("causal_reads"), RoutingConfig.CausalReads.class, d.causalReads()),
                Duration.ofMillis(node.get("causal_wait_ms").longValue(d.causalWait().toMillis(), 0, 60_000)),
                Duration.ofMillis(node.get("lag_poll_interval_ms").longValue(d.lagPollInterval().toMillis(), 10, 10_000)));
    }

    private static HealthConfig health(ConfigNode node) {
        node.requireObject(Set.of("history_list_threshold"));
        return new HealthConfig(node.get("history_list_threshold").longValue(HealthConfig.DEFAULTS.historyListThreshold(), 1,
                Long.MAX_VALUE));
    }

    private static TransactionsConfig transactions(ConfigNode node, List<ShardConfig> shards) {
        node.requireObject(Set.of("cross_shard", "decision_shard"));
        TransactionsConfig.CrossShard crossShard = choice(node.get("cross_shard"), TransactionsConfig.CrossShard.class,
                TransactionsConfig.CrossShard.XA);
        String decisionShard = node.get("decision_shard").optionalString().orElse(shards.get(0).name());
        if (shards.stream().noneMatch(shard -> shard.name().equals(decisionShard))) {
            throw node.get("decision_shard").error("'" + decisionShard + "' is not a configured shard");
        }
        return new TransactionsConfig(crossShard, decisionShard);
    }

    static <E extends Enum<E>> E choice(ConfigNode node, Class<E> type, E fallback) {
        java.util.Optional<String> value = node.optionalString();
        if (value.isEmpty()) {
            return fallback;
        }
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equalsIgnoreCase(value.get())) {
                return constant;
            }
        }
        throw node.error("'" + value.get() + "' is not one of " + java.util.Arrays.stream(type.getEnumConstants())
                .map(c -> c.name().toLowerCase(java.util.Locale.ROOT)).toList());
    }

    private static LimitsConfig limits(ConfigNode node) {
        node.requireObject(Set.of("max_client_connections", "max_backend_connections", "backend_acquire_timeout_ms",
                "backend_connect_timeout_ms", "handshake_timeout_ms", "idle_timeout_s", "max_allowed_packet",
                "max_prepared_statements", "backend_statement_cache", "max_buffered_rows", "sequence_block"));
        LimitsConfig d = LimitsConfig.DEFAULTS;
        return new LimitsConfig(
                node.get("max_client_connections").intValue(d.maxClientConnections(), 1, 1_000_000),
                node.get("max_backend_connections").intValue(d.maxBackendConnections(), 1, 100_000),
                Duration.ofMillis(node.get("backend_acquire_timeout_ms").longValue(d.backendAcquireTimeout().toMillis(), 1, 3_600_000)),
                Duration.ofMillis(node.get("backend_connect_timeout_ms").longValue(d.backendConnectTimeout().toMillis(), 1, 600_000)),
                Duration.ofMillis(node.get("handshake_timeout_ms").longValue(d.handshakeTimeout().toMillis(), 1, 600_000)),
                Duration.ofSeconds(node.get("idle_timeout_s").longValue(d.idleTimeout().toSeconds(), 1, 31_536_000)),
                node.get("max_allowed_packet").longValue(d.maxAllowedPacket(), 1024, 1L << 30),
                node.get("max_prepared_statements").intValue(d.maxPreparedStatements(), 1, 1_048_576),
                node.get("backend_statement_cache").intValue(d.backendStatementCache(), 1, 65_536),
                node.get("max_buffered_rows").longValue(d.maxBufferedRows(), 1, 1_000_000_000L),
                node.get("sequence_block").intValue(d.sequenceBlock(), 1, 1_000_000));
    }

    private static TlsConfig tls(ConfigNode node) {
        node.requireObject(Set.of("cert", "key"));
        Optional<Path> cert = node.get("cert").optionalString().map(Path::of);
        Optional<Path> key = node.get("key").optionalString().map(Path::of);
        if (cert.isPresent() != key.isPresent()) {
            throw node.error("give both cert and key, or neither for a self-signed pair");
        }
        for (String name : new String[] {"cert", "key"}) {
            Optional<Path> file = node.get(name).optionalString().map(Path::of);
            if (file.isPresent() && !Files.isReadable(file.get())) {
                throw node.get(name).error("cannot read " + file.get());
            }
        }
        return new TlsConfig(cert, key);
    }

    private static HostPort listen(ConfigNode node, int defaultPort) {
        node.requireObject(Set.of("host", "port"));
        return hostAndPort(node, defaultPort);
    }

    private static HostPort hostAndPort(ConfigNode node, int defaultPort) {
        String host = node.get("host").optionalString().orElse("127.0.0.1");
        // Port 0 listens on any free port (the chosen one is printed at startup).
        return new HostPort(host, node.get("port").intValue(defaultPort, 0, 65535));
    }

    private static ShardgateConfig.AdminConfig admin(ConfigNode node) {
        node.requireObject(Set.of("host", "port", "token"));
        HostPort listen = hostAndPort(node, 8307);
        String token = node.get("token").requiredString();
        if (token.length() < 8) {
            throw node.get("token").error("must be at least 8 characters");
        }
        return new ShardgateConfig.AdminConfig(listen, token);
    }

    private static List<UserConfig> users(ConfigNode node) {
        List<UserConfig> users = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (ConfigNode user : node.elements()) {
            user.requireObject(Set.of("name", "password", "password_hash", "require_tls", "auth_plugin"));
            String name = user.get("name").requiredString();
            if (!names.add(name)) {
                throw user.get("name").error("user '" + name + "' appears twice");
            }
            boolean requireTls = user.get("require_tls").booleanValue(false);
            String plugin = user.get("auth_plugin").optionalString().orElse(UserConfig.NATIVE);
            if (!plugin.equals(UserConfig.NATIVE) && !plugin.equals(UserConfig.CACHING_SHA2)) {
                throw user.get("auth_plugin").error("unknown plugin '" + plugin + "' (expected one of: "
                        + UserConfig.NATIVE + ", " + UserConfig.CACHING_SHA2 + ")");
            }
            ConfigNode password = user.get("password");
            ConfigNode hash = user.get("password_hash");
            if (password.isMissing() == hash.isMissing()) {
                throw user.error("give exactly one of password and password_hash");
            }
            if (!password.isMissing()) {
                users.add(UserConfig.withPassword(name, password.requiredString(), requireTls, plugin));
            } else {
                try {
                    users.add(UserConfig.withNativeHash(name, hash.requiredString(), requireTls, plugin));
                } catch (IllegalArgumentException e) {
                    throw hash.error(e.getMessage());
                }
            }
        }
        if (users.isEmpty()) {
            throw node.error("at least one user is required");
        }
        return users;
    }

    private static ShardgateConfig.BackendUser backendUser(ConfigNode node) {
        if (node.isMissing()) {
            throw node.error("is required");
        }
        node.requireObject(Set.of("name", "password"));
        return new ShardgateConfig.BackendUser(node.get("name").requiredString(),
                node.get("password").optionalString().orElse(""));
    }

    private static List<ShardConfig> shards(ConfigNode node, StorageAdapters adapters) {
        List<ShardConfig> shards = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (ConfigNode shard : node.elements()) {
            shard.requireObject(Set.of("name", "engine", "primary", "replicas", "key_range", "durability"));
            String name = shard.get("name").requiredString();
            if (!names.add(name)) {
                throw shard.get("name").error("shard '" + name + "' appears twice");
            }
            Engine engine;
            try {
                engine = adapters.engine(shard.get("engine").optionalString().orElse("innodb"));
            } catch (IllegalArgumentException e) {
                throw shard.get("engine").error(e.getMessage());
            }
            List<HostPort> replicas = new ArrayList<>();
            for (ConfigNode replica : shard.get("replicas").elements()) {
                replicas.add(HostPort.parse(replica));
            }
            shards.add(new ShardConfig(name, engine, HostPort.parse(shard.get("primary")), replicas,
                    shard.get("key_range").optionalString().orElse(""),
                    choice(shard.get("durability"), ShardConfig.Durability.class, ShardConfig.Durability.ASYNC)));
        }
        if (shards.isEmpty()) {
            throw node.error("at least one shard is required");
        }
        return shards;
    }
}
