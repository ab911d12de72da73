package io.shardgate.storage;

import io.shardgate.storage.health.EngineMetric;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The storage adapters found on the class path, one per engine: the registry of the engines
 * Shardgate knows. An engine is whatever an adapter declares ({@link StorageAdapter#engine()}), so a
 * jar with an adapter and its {@code META-INF/services/io.shardgate.storage.StorageAdapter} entry
 * adds one. Built once where the proxy starts and passed on; immutable.
 */
public final class StorageAdapters {
    private final Map<Engine, StorageAdapter> byEngine;

    private StorageAdapters(Map<Engine, StorageAdapter> byEngine) {
        this.byEngine = Collections.unmodifiableMap(byEngine);
    }

    /**
     * Loads every provider of {@link StorageAdapter}; two providers for one engine, or two engines
     * sharing a name, is an error.
     */
    public static StorageAdapters load(ClassLoader loader) {
        requireNonNull(loader, "loader is null");
        Map<Engine, StorageAdapter> found = new LinkedHashMap<>();
        for (StorageAdapter adapter : ServiceLoader.load(StorageAdapter.class, loader)) {
            Engine engine = requireNonNull(adapter.engine(), () -> adapter.getClass().getName() + ".engine() is null");
            StorageAdapter previous = found.putIfAbsent(engine, adapter);
            if (previous != null) {
                throw new IllegalStateException("two storage adapters for engine " + engine.configName()
                        + ": " + previous.getClass().getName() + " and " + adapter.getClass().getName());
            }
            for (Engine other : found.keySet()) {
                if (!other.equals(engine) && (other.isNamed(engine.serverName()) || engine.isNamed(other.serverName()))) {
                    throw new IllegalStateException("storage adapters " + found.get(other).getClass().getName() + " and "
                            + adapter.getClass().getName() + " declare engines " + other.configName() + " and "
                            + engine.configName() + " with the same server name");
                }
            }
        }
        return new StorageAdapters(found);
    }

    /** The engines of the adapters found, in class-path order. */
    public Set<Engine> engines() {
        return byEngine.keySet();
    }

    /**
     * The engine a shard's {@code engine:} value names, ignoring case and surrounding blanks.
     *
     * @throws IllegalArgumentException naming the value and the known engines when no adapter declares it
     */
    public Engine engine(String configName) {
        if (configName == null || configName.isBlank()) {
            throw new IllegalArgumentException("engine is empty (expected one of: " + configNames() + ")");
        }
        String wanted = configName.trim().toLowerCase(Locale.ROOT);
        for (Engine engine : byEngine.keySet()) {
            if (engine.configName().equals(wanted)) {
                return engine;
            }
        }
        throw new IllegalArgumentException("unknown engine '" + configName + "' (expected one of: " + configNames() + ")");
    }

    /** The engine that {@code name} in {@code ENGINE=} (server name, config name or alias) means, if any adapter declares it. */
    public Optional<Engine> named(String name) {
        requireNonNull(name, "name is null");
        return byEngine.keySet().stream().filter(engine -> engine.isNamed(name)).findFirst();
    }

    /**
     * Every engine metric the adapters declare, each name once (the first adapter's declaration wins), in adapter order:
     * the gauges the proxy registers for each backend.
     */
    public List<EngineMetric> metrics() {
        Map<String, EngineMetric> byName = new LinkedHashMap<>();
        for (StorageAdapter adapter : byEngine.values()) {
            for (EngineMetric metric : adapter.metrics()) {
                byName.putIfAbsent(metric.metricName(), metric);
            }
        }
        return List.copyOf(byName.values());
    }

    /** The adapter for an engine; fails loudly when no provider for it was found. */
    public StorageAdapter forEngine(Engine engine) {
        requireNonNull(engine, "engine is null");
        StorageAdapter adapter = byEngine.get(engine);
        if (adapter == null) {
            throw new IllegalStateException("no storage adapter for engine " + engine.configName()
                    + " on the class path (found: " + configNames() + ")");
        }
        return adapter;
    }

    private String configNames() {
        return byEngine.isEmpty() ? "none" : String.join(", ", byEngine.keySet().stream().map(Engine::configName).sorted().toList());
    }
}
