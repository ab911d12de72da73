package io.shardgate.storage.capability;

import io.shardgate.storage.Engine;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.EnumSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InnoDbCapabilitiesTest {

    @Test
    void plainServer() {
        EngineCapabilities caps = InnoDbCapabilities.from(FactsFixture.load(FactsFixture.PLAIN));
        assertThat(caps.engine()).isEqualTo(Engine.INNODB);
        assertThat(caps.serverVersion()).startsWith("10.11.");
        assertThat(caps.transactions().isolationLevels()).isEqualTo(EnumSet.allOf(IsolationLevel.class));
        assertThat(caps.transactions().gapLocks()).isTrue();
        assertThat(caps.transactions().binlogFormats()).isEqualTo(EnumSet.allOf(BinlogFormat.class));
        assertThat(caps.transactions().lockWaitTimeout()).isEqualTo(Duration.ofSeconds(50));
        assertThat(caps.transactions().rowLockLimit()).isEmpty();
        assertThat(caps.schema().foreignKeys()).isTrue();
        assertThat(caps.schema().fulltextIndexes()).isTrue();
        assertThat(caps.schema().spatialTypes()).isTrue();
        assertThat(caps.schema().rowFormatOptions()).isTrue();
        assertThat(caps.schema().keyBlockSizes()).containsExactly(1, 2, 4, 8, 16);
        assertThat(caps.schema().compressedRowFormatWritable()).isTrue();
        assertThat(caps.compression().setting()).isEqualTo("innodb_compression_algorithm");
        assertThat(caps.compression().available()).containsExactly("none", "zlib");
        assertThat(caps.compression().current()).isEqualTo("zlib");
        assertThat(caps.onlineDdl()).isSameAs(InnoDbCapabilities.ONLINE_DDL);
        assertThat(caps.columnFamilies().families()).isEmpty();
    }

    @Test
    void loadedProvidersAddAlgorithms() {
        EngineCapabilities caps = InnoDbCapabilities.from(FactsFixture.load(FactsFixture.ROCKSDB_LZ4));
        assertThat(caps.compression().available()).containsExactly("lz4", "none", "zlib");
        assertThat(caps.compression().isAvailable("LZ4")).isTrue();
        assertThat(caps.compression().isAvailable("lzma")).isFalse();

        ServerFacts more = FactsFixture.withStatus(FactsFixture.load(FactsFixture.PLAIN), "Innodb_have_lzma", "ON");
        assertThat(InnoDbCapabilities.from(more).compression().available()).containsExactly("lzma", "none", "zlib");
    }

    @Test
    void keyBlockSizesFollowThePageSize() {
        ServerFacts plain = FactsFixture.load(FactsFixture.PLAIN);
        assertThat(InnoDbCapabilities.from(FactsFixture.withVariable(plain, "innodb_page_size", "8192"))
                .schema().keyBlockSizes()).containsExactly(1, 2, 4, 8);
        assertThat(InnoDbCapabilities.from(FactsFixture.withVariable(plain, "innodb_page_size", "4096"))
                .schema().keyBlockSizes()).containsExactly(1, 2, 4);
        assertThat(InnoDbCapabilities.from(FactsFixture.withVariable(plain, "innodb_page_size", "32768"))
                .schema().keyBlockSizes()).isEmpty();
    }

    @Test
    void readOnlyCompressedTables() {
        ServerFacts facts = FactsFixture.withVariable(FactsFixture.load(FactsFixture.PLAIN),
                "innodb_read_only_compressed", "ON");
        assertThat(InnoDbCapabilities.from(facts).schema().compressedRowFormatWritable()).isFalse();
    }

    @Test
    void aMissingVariableIsNamed() {
        ServerFacts facts = FactsFixture.load(FactsFixture.PLAIN);
        ServerFacts without = new ServerFacts(facts.version(), facts.engines(), facts.plugins(),
                java.util.Map.of("innodb_page_size", "16384"), facts.status(), facts.columnFamilyOptions());
        assertThatThrownBy(() -> InnoDbCapabilities.from(without))
                .hasMessage("the server did not report the variable innodb_lock_wait_timeout");
    }

    @Test
    void describeUsesStableKeys() {
        var described = InnoDbCapabilities.from(FactsFixture.load(FactsFixture.PLAIN)).describe();
        assertThat(described).containsKeys("engine", "server_version", "isolation_levels", "gap_locks",
                "binlog_formats", "lock_wait_timeout_seconds", "row_lock_limit", "foreign_keys", "fulltext_indexes",
                "spatial_types", "row_format_options", "key_block_sizes", "compressed_row_format_writable",
                "compression_setting", "compression_algorithms", "compression_current", "online_ddl",
                "column_families", "bloom_filter_on_read");
        assertThat(described.get("isolation_levels"))
                .isEqualTo(java.util.List.of("READ UNCOMMITTED", "READ COMMITTED", "REPEATABLE READ", "SERIALIZABLE"));
        assertThat(described.get("row_lock_limit")).isNull();
        @SuppressWarnings("unchecked")
        var onlineDdl = (java.util.Map<String, String>) described.get("online_ddl");
        assertThat(onlineDdl).containsEntry("ADD_INDEX", "NOCOPY/NONE").containsEntry("ADD_COLUMN", "INSTANT/NONE")
                .containsEntry("MODIFY_COLUMN", "INSTANT/NONE at best (LOCK enforced, algorithm by the server)")
                .containsEntry("OTHER", "unknown (treated as blocking)");
    }
}
