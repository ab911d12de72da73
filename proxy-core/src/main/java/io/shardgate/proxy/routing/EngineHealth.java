package io.shardgate.proxy.routing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.shardgate.proxy.config.ConfigException;
import io.shardgate.proxy.config.HostPort;
import io.shardgate.proxy.config.ShardConfig;
import io.shardgate.proxy.config.ShardgateConfig;
import io.shardgate.storage.BackendEndpoint;
import io.shardgate.storage.CapabilityProbe;
import io.shardgate.storage.EngineMissingException;
import io.shardgate.storage.StorageAdapters;
import io.shardgate.storage.ddl.DdlValidator;
import io.shardgate.storage.capability.EngineCapabilities;
import io.shardgate.storage.capability.ServerFactsReader;
import io.shardgate.storage.health.BackendLoops;
import io.shardgate.storage.health.EngineMetric;
import io.shardgate.storage.health.HealthMonitor;
import io.shardgate.storage.health.HealthReport;
import io.shardgate.storage.health.HealthSettings;
import io.shardgate.storage.health.HealthState;
import io.shardgate.storage.health.SemiSync;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The storage adapters' view of a shard's backends: each backend's engine capabilities, probed at
 * startup, and its health (OK, DEGRADED, STALLED, FAILED), probed every second. A server that
 * lacks its shard's engine stops the proxy from starting; one that cannot be reached at startup is
 * probed again by its health monitor and shows as FAILED until it answers.
 *
 * <p>The primary of a shard with {@code durability: semi_sync} must have semi-synchronous
 * replication on with {@code rpl_semi_sync_master_wait_point=AFTER_SYNC}, or the proxy does not
 * start; its health monitor reports it DEGRADED whenever that stops being true or the primary has
 * fallen back to asynchronous replication ({@link SemiSync}).
 */
public final class EngineHealth implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(EngineHealth.class.getName());

    /** One backend: where it is, what its engine allows (null when it could not be probed), how it is. */
    public record Backend(String shard, String role, String address, io.shardgate.storage.Engine engine,
                          EngineCapabilities capabilities, HealthMonitor monitor) {
    }

    /** Replaced whole (copy on write) when a topology change adds or removes a replica. */
    private volatile List<Backend> backends;
    private final DdlValidator ddlValidator;
    /** What a replica added later needs: the account, the health settings, the adapters; and the registry its gauges go to. */
    private ShardgateConfig config;
    private StorageAdapters adapters;
    private MeterRegistry registry;

    private final List<EngineMetric> metrics;
    private final ObjectMapper json = new ObjectMapper();

    private EngineHealth(List<Backend> backends, DdlValidator ddlValidator, List<EngineMetric> metrics) {
        this.backends = List.copyOf(backends);
        this.ddlValidator = ddlValidator;
        this.metrics = List.copyOf(metrics);
    }

    /** The DDL validator for these shards, knowing the engines of the storage adapters loaded at start. */
    public DdlValidator ddlValidator() {
        return ddlValidator;
    }

    /**
     * Probes the primaries and replicas of {@code shards} and adds their health monitors to their servers' {@code loops},
     * which the caller starts and closes.
     */
    public static EngineHealth start(ShardgateConfig config, List<ShardConfig> shards, StorageAdapters adapters,
                                     BackendLoops loops) {
        CapabilityProbe probe = new CapabilityProbe(adapters, new ServerFactsReader(), Duration.ofSeconds(2), Duration.ofSeconds(5));
        List<Backend> backends = new ArrayList<>();
        try {
            for (ShardConfig shard : shards) {
                start(config, shard, probe, adapters, loops, backends);
            }
        } catch (RuntimeException e) {
            backends.forEach(backend -> backend.monitor().close());
            throw e;
        }
        EngineHealth health = new EngineHealth(backends, new DdlValidator(adapters), adapters.metrics());
        health.config = config;
        health.adapters = adapters;
        return health;
    }

    /**
     * A topology change added a replica of {@code shard} at {@code address}: its health is probed from now on, on a loop
     * of its own, and reported like the others (its capabilities are not probed: the change must not wait for it).
     */
    public void addReplica(String shard, io.shardgate.storage.Engine engine, HostPort address) {
        addBackend(shard, "replica", engine, address);
    }

    /** {@link #addReplica}, for a backend of either role (the primary of a shard added live too). */
    public synchronized void addBackend(String shard, String role, io.shardgate.storage.Engine engine, HostPort address) {
        if (config == null || backends.stream().anyMatch(known -> known.address().equals(address.toString()))) {
            return;
        }
        BackendEndpoint endpoint = new BackendEndpoint(shard, role, engine, address.host(), address.port(),
                config.backendUser().name(), config.backendUser().password());
        HealthMonitor monitor = new HealthMonitor(endpoint, adapters.forEngine(engine),
                HealthSettings.defaults().withHistoryListThreshold(config.health().historyListThreshold()), false, report -> { });
        Backend backend = new Backend(shard, role, address.toString(), engine, null, monitor);
        monitor.start(); // a loop of its own: the shared loops take checks only before they start
        List<Backend> next = new ArrayList<>(backends);
        next.add(backend);
        backends = List.copyOf(next);
        if (registry != null) {
            register(registry, backend);
        }
    }

    /**
     * A topology change removed the replica at {@code address}: its health is no longer probed or reported (waits for a
     * probe in flight on a loop of its own).
     */
    public void removeReplica(String address) {
        removeBackend("replica", address);
    }

    /** {@link #removeReplica}, for a backend of either role (a replaced primary too). */
    public void removeBackend(String role, String address) {
        List<Backend> gone = new ArrayList<>();
        synchronized (this) {
            List<Backend> next = new ArrayList<>();
            for (Backend backend : backends) {
                (backend.role().equals(role) && backend.address().equals(address) ? gone : next).add(backend);
            }
            backends = List.copyOf(next);
        }
        gone.forEach(backend -> backend.monitor().close());
    }

    private static void start(ShardgateConfig config, ShardConfig shard, CapabilityProbe probe, StorageAdapters adapters,
                              BackendLoops loops, List<Backend> backends) {
        List<HostPort> addresses = new ArrayList<>();
        addresses.add(shard.primary());
        addresses.addAll(shard.replicas());
        for (int i = 0; i < addresses.size(); i++) {
            HostPort address = addresses.get(i);
            String role = i == 0 ? "primary" : "replica";
            BackendEndpoint endpoint = new BackendEndpoint(shard.name(), role, shard.engine(), address.host(), address.port(),
                    config.backendUser().name(), config.backendUser().password());
            boolean semiSync = i == 0 && shard.durability() == ShardConfig.Durability.SEMI_SYNC;
            if (semiSync) {
                requireSemiSync(shard, endpoint);
            }
            EngineCapabilities capabilities = null;
            try {
                capabilities = probe.probe(endpoint);
            } catch (EngineMissingException e) {
                throw new ConfigException("shards." + shard.name() + ": " + e.getMessage());
            } catch (SQLException e) {
                LOG.log(System.Logger.Level.WARNING, "cannot probe " + endpoint + " at startup; its health monitor keeps trying: "
                        + e.getMessage());
            }
            HealthMonitor monitor = new HealthMonitor(endpoint, adapters.forEngine(shard.engine()),
                    HealthSettings.defaults().withHistoryListThreshold(config.health().historyListThreshold()), semiSync, report -> { });
            backends.add(new Backend(shard.name(), role, address.toString(), shard.engine(), capabilities, monitor));
            monitor.start(loops.loop(address.host(), address.port()));
        }
    }

    /**
     * Refuses to start when the primary answers and lacks semi-sync with AFTER_SYNC; one that
     * cannot be reached now is checked by its health monitor (DEGRADED until it has it).
     */
    private static void requireSemiSync(ShardConfig shard, BackendEndpoint primary) {
        List<String> problems;
        try (Connection connection = primary.connect(Duration.ofSeconds(2), Duration.ofSeconds(5))) {
            problems = SemiSync.misconfiguration(connection);
        } catch (SQLException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot check semi-sync replication on " + primary + " at startup; its health"
                    + " monitor reports it DEGRADED until it is on with AFTER_SYNC: " + e.getMessage());
            return;
        }
        if (!problems.isEmpty()) {
            throw new ConfigException("shards." + shard.name() + ".durability: semi_sync needs semi-synchronous replication"
                    + " with AFTER_SYNC on the primary " + shard.primary() + ", but " + String.join(" and ", problems));
        }
    }

    /**
     * Whether the backend at {@code address} may take new reads: not STALLED or FAILED. Before its
     * first probe finished nothing is known, and the lag monitor's verdict stands alone.
     */
    public boolean servesReads(String address) {
        for (Backend backend : backends) {
            if (backend.address().equals(address)) {
                HealthReport report = backend.monitor().current();
                boolean probed = !report.reasons().equals(List.of("not probed yet"));
                return !probed || (report.state() != HealthState.STALLED && report.state() != HealthState.FAILED);
            }
        }
        return true;
    }

    /** {@code shard}'s primary's engine capabilities as probed at startup; null when it could not be probed. */
    public EngineCapabilities primaryCapabilities(String shard) {
        for (Backend backend : backends) {
            if (backend.role().equals("primary") && backend.shard().equals(shard)) {
                return backend.capabilities();
            }
        }
        return null;
    }

    /** Engine gauges per backend, one for each metric the storage adapters declare, under their stable names. */
    public synchronized void registerMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (Backend backend : backends) {
            register(registry, backend);
        }
    }

    private void register(MeterRegistry registry, Backend backend) {
        {
            for (EngineMetric metric : metrics) {
                Gauge.builder(metric.metricName(), backend.monitor(), monitor -> monitor.current().metric(metric))
                        .tag("shard", backend.shard()).tag("role", backend.role()).tag("address", backend.address())
                        .tag("engine", backend.engine().configName()).description(metric.description() + " (-1: not read)")
                        .register(registry);
            }
            for (HealthState state : HealthState.values()) {
                Gauge.builder("shardgate.backend.health", backend.monitor(), monitor -> monitor.current().state() == state ? 1 : 0)
                        .tag("shard", backend.shard()).tag("role", backend.role()).tag("address", backend.address())
                        .tag("state", state.name()).register(registry);
            }
        }
    }

    /** {@code GET /shards}: one object per backend. */
    public String shardsJson() {
        ArrayNode array = json.createArrayNode();
        for (Backend backend : backends) {
            HealthReport report = backend.monitor().current();
            ObjectNode node = array.addObject();
            node.put("shard", backend.shard());
            node.put("role", backend.role());
            node.put("address", backend.address());
            node.put("engine", backend.engine().configName());
            node.put("health", report.state().name());
            ArrayNode reasons = node.putArray("reasons");
            report.reasons().forEach(reasons::add);
            if (backend.capabilities() == null) {
                node.putNull("capabilities");
            } else {
                node.set("capabilities", json.valueToTree(backend.capabilities().describe()));
            }
            ObjectNode metrics = node.putObject("metrics");
            for (Map.Entry<String, Long> metric : report.metrics().entrySet()) {
                metrics.put(metric.getKey(), metric.getValue());
            }
        }
        try {
            return json.writerWithDefaultPrettyPrinter().writeValueAsString(array) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        backends.forEach(backend -> backend.monitor().close());
    }
}
