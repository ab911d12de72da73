package io.shardgate.storage;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.ServiceLoader;

import static java.util.Objects.requireNonNull;

/** The storage adapters found on the class path, one per engine. */
public final class StorageAdapters {
    private final Map<Engine, StorageAdapter> byEngine;

    private StorageAdapters(Map<Engine, StorageAdapter> byEngine) {
        this.byEngine = Collections.unmodifiableMap(byEngine);
    }

    /** Loads every provider of {@link StorageAdapter}; two providers for one engine is an error. */
    public static StorageAdapters load(ClassLoader loader) {
        requireNonNull(loader, "loader is null");
        Map<Engine, StorageAdapter> found = new EnumMap<>(Engine.class);
        for (StorageAdapter adapter : ServiceLoader.load(StorageAdapter.class, loader)) {
            StorageAdapter previous = found.putIfAbsent(adapter.engine(), adapter);
            if (previous != null) {
                throw new IllegalStateException("two storage adapters for engine " + adapter.engine().configName()
                        + ": " + previous.getClass().getName() + " and " + adapter.getClass().getName());
            }
        }
        return new StorageAdapters(found);
    }

    /** The adapter for an engine; fails loudly when no provider for it was found. */
    public StorageAdapter forEngine(Engine engine) {
        requireNonNull(engine, "engine is null");
        StorageAdapter adapter = byEngine.get(engine);
        if (adapter == null) {
            throw new IllegalStateException("no storage adapter for engine " + engine.configName()
                    + " on the class path (found: " + byEngine.keySet() + ")");
        }
        return adapter;
    }
}
