package io.shardgate.storage;

import io.shardgate.storage.capability.EngineCapabilities;
import io.shardgate.storage.capability.MyRocksCapabilities;
import io.shardgate.storage.capability.ServerFacts;
import io.shardgate.storage.checksum.TableChecksum;
import io.shardgate.storage.health.EngineMetric;
import io.shardgate.storage.health.EngineSampler;
import io.shardgate.storage.health.HealthRules;
import io.shardgate.storage.health.HealthSettings;
import io.shardgate.storage.health.MyRocksHealthRules;
import io.shardgate.storage.health.MyRocksSampler;

import java.util.List;
import java.util.Map;

/**
 * MyRocks, the RocksDB (LSM) engine, loaded as MariaDB's {@code ha_rocksdb} plugin. The replica
 * GTID position is kept in a RocksDB table too ({@code gtid_pos_auto_engines}), so a replica's
 * position commits atomically with the rows it applies.
 */
public final class MyRocksAdapter implements StorageAdapter {

    @Override
    public Engine engine() {
        return Engine.ROCKSDB;
    }

    @Override
    public Map<String, String> serverOptions() {
        return Map.of(
                "plugin_load_add", "ha_rocksdb",
                "default_storage_engine", "ROCKSDB",
                "gtid_pos_auto_engines", "ROCKSDB");
    }

    @Override
    public EngineCapabilities capabilities(ServerFacts facts) {
        return MyRocksCapabilities.from(facts);
    }

    @Override
    public EngineSampler sampler(HealthSettings settings) {
        return new MyRocksSampler(settings.statusTimeout());
    }

    @Override
    public HealthRules healthRules(HealthSettings settings) {
        return new MyRocksHealthRules();
    }

    /**
     * Key ranges, forced onto the primary key: MyRocks' index statistics are sampled estimates, and a range read
     * through a secondary index would cost a point lookup into the LSM tree per row.
     */
    @Override
    public TableChecksum checksum() {
        return new TableChecksum(TableChecksum.ScanHint.PRIMARY);
    }

    @Override
    public List<EngineMetric> metrics() {
        return List.of(EngineMetric.ROCKSDB_STALL_STOPS, EngineMetric.ROCKSDB_STALL_SLOWDOWNS,
                EngineMetric.ROCKSDB_STALL_MICROS, EngineMetric.ROCKSDB_COMPACTION_PENDING, EngineMetric.ROCKSDB_FLUSH_PENDING,
                EngineMetric.ROCKSDB_IMMUTABLE_MEMTABLES, EngineMetric.ROCKSDB_MEMTABLE_BYTES,
                EngineMetric.ROCKSDB_BACKGROUND_ERRORS, EngineMetric.TABLE_ALLOCATED_BYTES);
    }
}
