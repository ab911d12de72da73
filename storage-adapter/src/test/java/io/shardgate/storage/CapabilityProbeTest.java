package io.shardgate.storage;

import io.shardgate.storage.capability.FactsFixture;
import io.shardgate.storage.capability.ServerFacts;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CapabilityProbeTest {
    private final CapabilityProbe probe = new CapabilityProbe(StorageAdapters.load(getClass().getClassLoader()),
            new io.shardgate.storage.capability.ServerFactsReader(), Duration.ofSeconds(1), Duration.ofSeconds(2));

    private static BackendEndpoint backend(Engine engine) {
        return new BackendEndpoint("s1", "primary", engine, "127.0.0.1", 24001, "shardgate", "secret");
    }

    @Test
    void aServerWithoutTheEngineIsRefusedNamingShardAndEngine() {
        ServerFacts plain = FactsFixture.load(FactsFixture.PLAIN);
        assertThatThrownBy(() -> probe.capabilities(backend(Engine.ROCKSDB), plain))
                .isInstanceOf(EngineMissingException.class)
                .hasMessage("shard s1: the server at 127.0.0.1:24001 lacks the engine ROCKSDB"
                        + " (information_schema.ENGINES: absent); load it with plugin_load_add=ha_rocksdb"
                        + " or change the shard's engine")
                .satisfies(e -> {
                    EngineMissingException missing = (EngineMissingException) e;
                    assertThat(missing.shard()).isEqualTo("s1");
                    assertThat(missing.engine()).isEqualTo(Engine.ROCKSDB);
                });
    }

    @Test
    void aDisabledEngineIsRefusedToo() {
        ServerFacts facts = FactsFixture.load(FactsFixture.ROCKSDB_LZ4);
        java.util.Map<String, String> engines = new java.util.LinkedHashMap<>(facts.engines());
        engines.put("ROCKSDB", "DISABLED");
        ServerFacts disabled = new ServerFacts(facts.version(), engines, facts.plugins(), facts.variables(),
                facts.status(), facts.columnFamilyOptions());
        assertThatThrownBy(() -> probe.capabilities(backend(Engine.ROCKSDB), disabled))
                .hasMessageContaining("lacks the engine ROCKSDB (information_schema.ENGINES: DISABLED)");
    }

    @Test
    void eachEngineGetsItsAdaptersCapabilities() {
        ServerFacts facts = FactsFixture.load(FactsFixture.ROCKSDB_LZ4);
        assertThat(probe.capabilities(backend(Engine.ROCKSDB), facts).engine()).isEqualTo(Engine.ROCKSDB);
        assertThat(probe.capabilities(backend(Engine.INNODB), facts).engine()).isEqualTo(Engine.INNODB);
    }

    @Test
    void endpointsHidePasswords() {
        assertThat(backend(Engine.INNODB).toString()).isEqualTo("s1 primary (innodb, 127.0.0.1:24001)")
                .doesNotContain("secret");
        assertThat(new BackendEndpoint("s0", "replica", Engine.INNODB, "::1", 3306, "u", "p").address())
                .isEqualTo("[::1]:3306");
        assertThatThrownBy(() -> new BackendEndpoint("s0", "replica", Engine.INNODB, "h", 0, "u", "p"))
                .hasMessage("port: 0 (expected: 1..65535)");
    }
}
