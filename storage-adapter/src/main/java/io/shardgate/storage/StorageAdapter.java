package io.shardgate.storage;

import io.shardgate.storage.capability.EngineCapabilities;
import io.shardgate.storage.capability.ServerFacts;
import io.shardgate.storage.checksum.TableChecksum;
import io.shardgate.storage.health.EngineMetric;
import io.shardgate.storage.health.EngineSampler;
import io.shardgate.storage.health.HealthRules;
import io.shardgate.storage.health.HealthSettings;

import java.util.List;
import java.util.Map;

/**
 * What Shardgate knows about one storage engine. One implementation per engine is found with
 * {@link java.util.ServiceLoader}; {@link StorageAdapters} picks the one a shard's {@code engine:}
 * names. Implementations hold no state: the same instance serves every shard on the engine.
 */
public interface StorageAdapter {

    Engine engine();

    /**
     * The server options a MariaDB node needs to run this engine as its default, as
     * {@code option -> value}; an empty value means a bare flag.
     */
    Map<String, String> serverOptions();

    /**
     * What this engine allows on a server that reported {@code facts}. Pure; the caller has
     * already checked that the server has the engine (see {@link CapabilityProbe}).
     */
    EngineCapabilities capabilities(ServerFacts facts);

    /** Reads this engine's health values from a backend, within {@code settings}' timeouts. */
    EngineSampler sampler(HealthSettings settings);

    /** Judges this engine's health samples under {@code settings}. */
    HealthRules healthRules(HealthSettings settings);

    /**
     * The engine metrics this adapter's sampler reads. The proxy registers a gauge under each name for every backend
     * (-1 where a backend's probe did not read it); none by default.
     */
    default List<EngineMetric> metrics() {
        return List.of();
    }

    /**
     * The checksum primitive on this engine: how it reads a primary-key range, never what it computes.
     * Every engine must give the same value for the same rows, so a table on one engine can be compared
     * with its copy on another. By default, primary-key ranges that the range optimizer can use
     * ({@link TableChecksum.ScanHint#KEY_RANGE}).
     */
    default TableChecksum checksum() {
        return new TableChecksum(TableChecksum.ScanHint.KEY_RANGE);
    }
}
