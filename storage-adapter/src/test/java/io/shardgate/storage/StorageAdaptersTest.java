package io.shardgate.storage;

import org.junit.jupiter.api.Test;

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
        assertThat(Engine.fromConfigName("InnoDB")).isEqualTo(Engine.INNODB);
        assertThat(Engine.fromConfigName(" rocksdb ")).isEqualTo(Engine.ROCKSDB);
        assertThatThrownBy(() -> Engine.fromConfigName("myisam"))
                .hasMessage("unknown engine 'myisam' (expected one of: innodb, rocksdb)");
        assertThatThrownBy(() -> Engine.fromConfigName(""))
                .hasMessageContaining("engine is empty");
    }
}
