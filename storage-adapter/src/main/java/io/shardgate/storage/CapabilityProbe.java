package io.shardgate.storage;

import io.shardgate.storage.capability.EngineCapabilities;
import io.shardgate.storage.capability.ServerFacts;
import io.shardgate.storage.capability.ServerFactsReader;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * The startup check of one backend: reads what the server reports, refuses a server that lacks
 * the shard's engine, and returns what the engine allows there.
 */
public final class CapabilityProbe {
    private final StorageAdapters adapters;
    private final ServerFactsReader reader;
    private final Duration connectTimeout;
    private final Duration socketTimeout;

    public CapabilityProbe(StorageAdapters adapters, ServerFactsReader reader, Duration connectTimeout,
                           Duration socketTimeout) {
        this.adapters = requireNonNull(adapters, "adapters is null");
        this.reader = requireNonNull(reader, "reader is null");
        this.connectTimeout = requireNonNull(connectTimeout, "connectTimeout is null");
        this.socketTimeout = requireNonNull(socketTimeout, "socketTimeout is null");
    }

    /**
     * Connects to {@code backend}, reads its facts and derives its capabilities.
     *
     * @throws EngineMissingException when the server cannot create tables in the shard's engine
     * @throws SQLException           when the server cannot be reached or queried
     */
    public EngineCapabilities probe(BackendEndpoint backend) throws SQLException {
        requireNonNull(backend, "backend is null");
        try (Connection connection = backend.connect(connectTimeout, socketTimeout)) {
            return capabilities(backend, reader.read(connection));
        }
    }

    /** The capabilities for facts already read; fails as {@link #probe} does for a missing engine. */
    public EngineCapabilities capabilities(BackendEndpoint backend, ServerFacts facts) {
        requireNonNull(backend, "backend is null");
        requireNonNull(facts, "facts is null");
        Engine engine = backend.engine();
        StorageAdapter adapter = adapters.forEngine(engine);
        if (!facts.hasEngine(engine.serverName())) {
            String plugin = adapter.serverOptions().get("plugin_load_add");
            throw new EngineMissingException(backend.shard(), engine, backend.address(),
                    facts.engineSupport(engine.serverName()), plugin == null ? "" : "plugin_load_add=" + plugin);
        }
        return adapter.capabilities(facts);
    }
}
