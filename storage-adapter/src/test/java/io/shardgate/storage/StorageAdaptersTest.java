package io.shardgate.storage;

import io.shardgate.storage.aria.AriaAdapter;
import io.shardgate.storage.aria.AriaPlugin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import java.net.URL;
import java.net.URLClassLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StorageAdaptersTest {

    @Test
    void findsOneAdapterPerEngine() {
        StorageAdapters adapters = StorageAdapters.load(getClass().getClassLoader());
        assertThat(adapters.forEngine(Engine.INNODB)).isInstanceOf(InnoDbAdapter.class);
        assertThat(adapters.forEngine(Engine.ROCKSDB)).isInstanceOf(MyRocksAdapter.class);
        assertThat(adapters.forEngine(Engine.ROCKSDB).serverOptions())
                .containsEntry("plugin_load_add", "ha_rocksdb")
                .containsEntry("default_storage_engine", "ROCKSDB");
    }

    @Test
    void missingProviderFailsLoudly() {
        // A loader that sees no service files at all.
        ClassLoader empty = new URLClassLoader(new URL[0], null);
        StorageAdapters adapters = StorageAdapters.load(empty);
        assertThatThrownBy(() -> adapters.forEngine(Engine.ROCKSDB))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no storage adapter for engine rocksdb");
    }

    @Test
    void parsesEngineNames() {
        StorageAdapters adapters = StorageAdapters.load(getClass().getClassLoader());
        assertThat(adapters.engine("InnoDB")).isEqualTo(Engine.INNODB);
        assertThat(adapters.engine(" rocksdb ")).isEqualTo(Engine.ROCKSDB);
        assertThatThrownBy(() -> adapters.engine("myisam"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown engine 'myisam' (expected one of: innodb, rocksdb)");
        assertThatThrownBy(() -> adapters.engine(""))
                .hasMessageContaining("engine is empty");
    }

    @Test
    void aJarWithAnAdapterAddsAnEngine() {
        StorageAdapters shipped = StorageAdapters.load(getClass().getClassLoader());
        assertThatThrownBy(() -> shipped.engine("aria"))
                .hasMessage("unknown engine 'aria' (expected one of: innodb, rocksdb)");

        StorageAdapters withAria = StorageAdapters.load(AriaPlugin.classLoader());
        assertThat(withAria.engines()).containsExactlyInAnyOrder(Engine.INNODB, Engine.ROCKSDB, AriaAdapter.ARIA);
        Engine aria = withAria.engine("Aria");
        assertThat(aria).isEqualTo(new Engine("aria", "Aria")).isNotEqualTo(Engine.INNODB);
        assertThat(aria.serverName()).isEqualTo("Aria");
        assertThat(withAria.forEngine(aria)).isInstanceOf(AriaAdapter.class);
        assertThat(withAria.named("ARIA")).contains(aria);
        assertThat(withAria.named("innobase")).contains(Engine.INNODB);
        assertThat(withAria.named("MyISAM")).isEmpty();
        assertThatThrownBy(() -> withAria.engine("myisam"))
                .hasMessage("unknown engine 'myisam' (expected one of: aria, innodb, rocksdb)");
    }

    @Test
    void engineNamesAreChecked() {
        assertThatThrownBy(() -> new Engine("Aria", "Aria")).hasMessageContaining("lower case");
        assertThatThrownBy(() -> new Engine("aria", " ")).hasMessageContaining("server name is empty");
        assertThat(Engine.ROCKSDB.toString()).isEqualTo("ROCKSDB");
        assertThat(Engine.INNODB.isNamed("INNOBASE")).isTrue();
    }

    @Test
    void twoAdaptersForOneEngineOrOneServerNameFailLoudly(@TempDir Path dir) throws IOException {
        assertThatThrownBy(() -> StorageAdapters.load(withProvider(dir.resolve("same"), SecondInnoDb.class)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("two storage adapters for engine innodb");
        assertThatThrownBy(() -> StorageAdapters.load(withProvider(dir.resolve("clash"), InnoDbLookalike.class)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("with the same server name");
    }

    private ClassLoader withProvider(Path root, Class<? extends StorageAdapter> provider) throws IOException {
        Path services = Files.createDirectories(root.resolve("META-INF/services"));
        Files.writeString(services.resolve(StorageAdapter.class.getName()), provider.getName() + "\n");
        return new URLClassLoader(new URL[] {root.toUri().toURL()}, getClass().getClassLoader());
    }

    /** A second adapter declaring InnoDB. */
    public static final class SecondInnoDb extends Delegating {
        public SecondInnoDb() {
            super(Engine.INNODB);
        }
    }

    /** Another config name for the server's InnoDB. */
    public static final class InnoDbLookalike extends Delegating {
        public InnoDbLookalike() {
            super(new Engine("innodb2", "innodb"));
        }
    }

    private abstract static class Delegating implements StorageAdapter {
        private final Engine engine;
        private final StorageAdapter delegate = new InnoDbAdapter();

        Delegating(Engine engine) {
            this.engine = engine;
        }

        @Override
        public Engine engine() {
            return engine;
        }

        @Override
        public java.util.Map<String, String> serverOptions() {
            return delegate.serverOptions();
        }

        @Override
        public io.shardgate.storage.capability.EngineCapabilities capabilities(io.shardgate.storage.capability.ServerFacts facts) {
            return delegate.capabilities(facts);
        }

        @Override
        public io.shardgate.storage.health.EngineSampler sampler(io.shardgate.storage.health.HealthSettings settings) {
            return delegate.sampler(settings);
        }

        @Override
        public io.shardgate.storage.health.HealthRules healthRules(io.shardgate.storage.health.HealthSettings settings) {
            return delegate.healthRules(settings);
        }
    }
}
