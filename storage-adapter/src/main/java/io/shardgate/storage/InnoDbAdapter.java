package io.shardgate.storage;

import io.shardgate.storage.capability.EngineCapabilities;
import io.shardgate.storage.capability.InnoDbCapabilities;
import io.shardgate.storage.capability.ServerFacts;
import io.shardgate.storage.health.EngineMetric;
import io.shardgate.storage.health.EngineSampler;
import io.shardgate.storage.health.HealthRules;
import io.shardgate.storage.health.HealthSettings;
import io.shardgate.storage.health.InnoDbHealthRules;
import io.shardgate.storage.health.InnoDbSampler;

import java.util.List;
import java.util.Map;

/** InnoDB, MariaDB's default engine. */
public final class InnoDbAdapter implements StorageAdapter {

    @Override
    public Engine engine() {
        return Engine.INNODB;
    }

    @Override
    public Map<String, String> serverOptions() {
        return Map.of("default_storage_engine", "InnoDB");
    }

    @Override
    public EngineCapabilities capabilities(ServerFacts facts) {
        return InnoDbCapabilities.from(facts);
    }

    @Override
    public EngineSampler sampler(HealthSettings settings) {
        return new InnoDbSampler();
    }

    @Override
    public HealthRules healthRules(HealthSettings settings) {
        return new InnoDbHealthRules(settings);
    }

    @Override
    public List<EngineMetric> metrics() {
        return List.of(EngineMetric.INNODB_HISTORY_LIST_LENGTH, EngineMetric.INNODB_PAGE_COMPRESSION_SAVED,
                EngineMetric.INNODB_CORRUPT_INDEXES, EngineMetric.TABLE_ALLOCATED_BYTES);
    }
}
