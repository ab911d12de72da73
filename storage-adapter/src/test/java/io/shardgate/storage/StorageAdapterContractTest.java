package io.shardgate.storage;

import io.shardgate.storage.aria.AriaPlugin;
import io.shardgate.storage.capability.ServerFacts;
import io.shardgate.storage.capability.ServerFactsReader;
import io.shardgate.storage.health.EngineSample;
import io.shardgate.storage.health.HealthSettings;
import io.shardgate.storage.health.HealthState;
import io.shardgate.storage.health.Judgement;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every storage adapter promises, run against each engine: one subclass per adapter (the two
 * shipped and the test-only Aria), all found through {@link java.util.ServiceLoader} with the Aria
 * plugin's service file on the class path.
 */
abstract class StorageAdapterContractTest {
    private final StorageAdapters adapters = StorageAdapters.load(AriaPlugin.classLoader());

    /** The adapter under test. */
    abstract StorageAdapter adapter();

    /** Facts read from a server that has the engine. */
    abstract ServerFacts facts();

    @Test
    void isFoundByServiceLoaderUnderItsConfigName() {
        Engine engine = adapter().engine();
        assertThat(adapters.engines()).contains(engine);
        assertThat(adapters.engine(engine.configName().toUpperCase())).isEqualTo(engine);
        assertThat(adapters.forEngine(engine)).isInstanceOf(adapter().getClass());
        assertThat(adapters.named(engine.serverName())).contains(engine);
        engine.aliases().forEach(alias -> assertThat(adapters.named(alias)).as(alias).contains(engine));
    }

    @Test
    void makesItsEngineTheServersDefault() {
        assertThat(adapter().serverOptions()).containsEntry("default_storage_engine", adapter().engine().serverName());
    }

    @Test
    void capabilitiesAreForItsEngine() {
        ServerFacts facts = facts();
        assertThat(facts.hasEngine(adapter().engine().serverName())).as("fixture has the engine").isTrue();
        var capabilities = adapter().capabilities(facts);
        assertThat(capabilities.engine()).isEqualTo(adapter().engine());
        assertThat(capabilities.serverVersion()).isEqualTo(facts.version());
        assertThat(capabilities.describe()).containsEntry("engine", adapter().engine().configName());
    }

    @Test
    void probeRefusesAServerWithoutTheEngineNamingIt() {
        ServerFacts facts = facts();
        ServerFacts without = new ServerFacts(facts.version(), Map.of(), facts.plugins(), facts.variables(), facts.status(),
                facts.columnFamilyOptions());
        CapabilityProbe probe = new CapabilityProbe(adapters, new ServerFactsReader(), Duration.ofSeconds(1), Duration.ofSeconds(1));
        BackendEndpoint backend = new BackendEndpoint("s9", "primary", adapter().engine(), "127.0.0.1", 1, "u", "");
        assertThatThrownBy(() -> probe.capabilities(backend, without))
                .isInstanceOf(EngineMissingException.class)
                .hasMessageContaining("shard s9")
                .hasMessageContaining("lacks the engine " + adapter().engine().serverName());
        assertThat(probe.capabilities(backend, facts).engine()).isEqualTo(adapter().engine());
    }

    @Test
    void healthRulesFailAServerThatLostTheEngine() {
        HealthSettings settings = HealthSettings.defaults();
        assertThat(adapter().sampler(settings)).isNotNull();
        Judgement judgement = adapter().healthRules(settings).judge(null, EngineSample.engineMissing());
        assertThat(judgement.state()).isEqualTo(HealthState.FAILED);
        assertThat(judgement.reasons()).anySatisfy(reason -> assertThat(reason).contains(adapter().engine().serverName()));
    }
}
