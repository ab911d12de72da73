package io.shardgate.storage.aria;

import io.shardgate.storage.Engine;
import io.shardgate.storage.StorageAdapter;
import io.shardgate.storage.capability.AlterAlgorithm;
import io.shardgate.storage.capability.AlterLock;
import io.shardgate.storage.capability.AlterOperation;
import io.shardgate.storage.capability.BinlogFormat;
import io.shardgate.storage.capability.ColumnFamilySupport;
import io.shardgate.storage.capability.CompressionSupport;
import io.shardgate.storage.capability.EngineCapabilities;
import io.shardgate.storage.capability.IsolationLevel;
import io.shardgate.storage.capability.OnlineDdl;
import io.shardgate.storage.capability.OnlineDdlRule;
import io.shardgate.storage.capability.SchemaSupport;
import io.shardgate.storage.capability.ServerFacts;
import io.shardgate.storage.capability.TransactionSupport;
import io.shardgate.storage.health.EngineSample;
import io.shardgate.storage.health.EngineSampler;
import io.shardgate.storage.health.HealthRules;
import io.shardgate.storage.health.HealthSettings;
import io.shardgate.storage.health.HealthState;
import io.shardgate.storage.health.Judgement;

import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A third engine that no main code knows: a stand-in for MariaDB's Aria, declared only here and in
 * {@code src/test/resources/aria-plugin/META-INF/services}, as a plugin jar would declare it. Its
 * capabilities are Aria's in outline (no foreign keys, table locks so no online ALTER, no
 * transactions to isolate), enough to differ from InnoDB's and MyRocks'.
 */
public final class AriaAdapter implements StorageAdapter {
    public static final Engine ARIA = new Engine("aria", "Aria");

    @Override
    public Engine engine() {
        return ARIA;
    }

    @Override
    public Map<String, String> serverOptions() {
        return Map.of("default_storage_engine", "Aria");
    }

    @Override
    public EngineCapabilities capabilities(ServerFacts facts) {
        TransactionSupport transactions = new TransactionSupport(EnumSet.of(IsolationLevel.READ_UNCOMMITTED), false,
                EnumSet.allOf(BinlogFormat.class), Duration.ofSeconds(facts.variable("lock_wait_timeout").map(Long::parseLong).orElse(86_400L)),
                OptionalLong.empty());
        SchemaSupport schema = new SchemaSupport(false, true, facts.isOn("have_geometry", true), true, Set.of(), true);
        Map<AlterOperation, OnlineDdlRule> rules = new EnumMap<>(AlterOperation.class);
        for (AlterOperation operation : AlterOperation.values()) {
            rules.put(operation, OnlineDdlRule.exact(AlterAlgorithm.COPY, AlterLock.SHARED));
        }
        return new EngineCapabilities(ARIA, facts.version(), transactions, schema,
                new CompressionSupport("aria_compression", Set.of("none"), "none"),
                new OnlineDdl(rules, java.util.Optional.empty()), ColumnFamilySupport.none());
    }

    @Override
    public EngineSampler sampler(HealthSettings settings) {
        return (connection, slowChecks) -> {
            try (Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery(
                         "SELECT SUPPORT FROM information_schema.ENGINES WHERE ENGINE = 'Aria'")) {
                boolean loaded = rows.next() && !"NO".equalsIgnoreCase(rows.getString(1));
                return loaded ? new EngineSample(true, Map.of(), List.of(), Map.of(), slowChecks, false)
                        : EngineSample.engineMissing();
            }
        };
    }

    @Override
    public HealthRules healthRules(HealthSettings settings) {
        return (previous, current) -> current.engineLoaded() ? Judgement.ok()
                : new Judgement.Builder().add(HealthState.FAILED, "engine Aria is not loaded").build();
    }
}
