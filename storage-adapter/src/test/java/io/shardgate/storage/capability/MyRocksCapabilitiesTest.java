package io.shardgate.storage.capability;

import io.shardgate.storage.Engine;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.EnumSet;

import static org.assertj.core.api.Assertions.assertThat;

class MyRocksCapabilitiesTest {
    private final ServerFacts facts = FactsFixture.load(FactsFixture.ROCKSDB_LZ4);

    @Test
    void probedAndKnownFacts() {
        EngineCapabilities caps = MyRocksCapabilities.from(facts);
        assertThat(caps.engine()).isEqualTo(Engine.ROCKSDB);
        assertThat(caps.transactions().isolationLevels())
                .isEqualTo(EnumSet.of(IsolationLevel.READ_COMMITTED, IsolationLevel.REPEATABLE_READ));
        assertThat(caps.transactions().gapLocks()).isFalse();
        assertThat(caps.transactions().binlogFormats()).isEqualTo(EnumSet.of(BinlogFormat.ROW, BinlogFormat.MIXED));
        assertThat(caps.transactions().lockWaitTimeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(caps.transactions().rowLockLimit()).hasValue(1_048_576);
        assertThat(caps.schema().foreignKeys()).isFalse();
        assertThat(caps.schema().fulltextIndexes()).isFalse();
        assertThat(caps.schema().spatialTypes()).isFalse();
        assertThat(caps.schema().rowFormatOptions()).isFalse();
        assertThat(caps.schema().keyBlockSizes()).isEmpty();
        assertThat(caps.compression().available()).containsExactly("LZ4", "LZ4HC", "Snappy", "ZSTDNotFinal", "Zlib");
        assertThat(caps.compression().current()).isEqualTo("kSnappyCompression");
        assertThat(caps.onlineDdl()).isSameAs(MyRocksCapabilities.ONLINE_DDL);
    }

    @Test
    void columnFamiliesAndBloomFilters() {
        EngineCapabilities caps = MyRocksCapabilities.from(facts);
        assertThat(caps.columnFamilies().families()).extracting(ColumnFamily::name).containsExactly("__system__", "default");
        ColumnFamily family = caps.columnFamilies().families().get(1);
        assertThat(family.writeBufferBytes()).isEqualTo(1_048_576);
        assertThat(family.hasBloomFilter()).as("nullptr means no filter").isFalse();
        assertThat(family.bottommostCompression()).isEqualTo("kDisableCompressionOption");
        assertThat(caps.columnFamilies().bloomFilterOnRead()).isTrue();

        ServerFacts bloom = FactsFixture.withFamilyOption(facts, "default", "TABLE_FACTORY::FILTER_POLICY",
                "bloomfilter:10:false");
        bloom = FactsFixture.withVariable(bloom, "rocksdb_skip_bloom_filter_on_read", "ON");
        EngineCapabilities withBloom = MyRocksCapabilities.from(bloom);
        assertThat(withBloom.columnFamilies().families().get(1).bloomFilter()).isEqualTo("bloomfilter:10:false");
        assertThat(withBloom.columnFamilies().bloomFilterOnRead()).isFalse();
    }

    @Test
    void unsafeForBinlogAllowsStatementFormat() {
        ServerFacts unsafe = FactsFixture.withVariable(facts, "rocksdb_unsafe_for_binlog", "ON");
        assertThat(MyRocksCapabilities.from(unsafe).transactions().binlogFormats())
                .isEqualTo(EnumSet.allOf(BinlogFormat.class));
    }
}
