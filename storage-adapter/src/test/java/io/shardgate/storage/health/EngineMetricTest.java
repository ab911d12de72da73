package io.shardgate.storage.health;

import io.shardgate.storage.InnoDbAdapter;
import io.shardgate.storage.MyRocksAdapter;
import io.shardgate.storage.StorageAdapters;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EngineMetricTest {

    @Test
    void namesAreStableUniqueAndPrefixed() {
        assertThat(Arrays.stream(EngineMetric.values()).map(EngineMetric::metricName))
                .doesNotHaveDuplicates()
                .allMatch(name -> name.matches("shardgate\\.engine\\.[a-z.]+"));
        assertThat(EngineMetric.ROCKSDB_STALL_STOPS.metricName()).isEqualTo("shardgate.engine.rocksdb.stall.stops");
        assertThat(EngineMetric.INNODB_HISTORY_LIST_LENGTH.metricName()).isEqualTo("shardgate.engine.innodb.history.list.length");
    }

    /** An engine's metrics are what its adapter declares; the registry's are every adapter's, each name once. */
    @Test
    void adaptersDeclareTheirMetricsAndTheRegistryHasEveryNameOnce() {
        assertThat(new InnoDbAdapter().metrics()).contains(EngineMetric.INNODB_HISTORY_LIST_LENGTH,
                EngineMetric.TABLE_ALLOCATED_BYTES).noneMatch(metric -> metric.metricName().contains("rocksdb"));
        assertThat(new MyRocksAdapter().metrics()).contains(EngineMetric.ROCKSDB_STALL_STOPS,
                EngineMetric.TABLE_ALLOCATED_BYTES).noneMatch(metric -> metric.metricName().contains("innodb"));
        List<EngineMetric> all = StorageAdapters.load(EngineMetricTest.class.getClassLoader()).metrics();
        assertThat(all).as("the gauges the proxy registers: the same names as before adapters declared them")
                .containsAll(Arrays.asList(EngineMetric.values()));
        assertThat(all.stream().map(EngineMetric::metricName)).doesNotHaveDuplicates();
    }

    @Test
    void anAdapterCanDeclareAMetricOfItsOwnUnderAStableName() {
        EngineMetric pages = new EngineMetric("shardgate.engine.aria.pagecache.blocks.used", EngineMetric.Kind.GAUGE, "blocks",
                "Aria page cache blocks in use (Aria_pagecache_blocks_used)");
        assertThat(pages).isEqualTo(new EngineMetric("shardgate.engine.aria.pagecache.blocks.used", EngineMetric.Kind.GAUGE,
                "blocks", "Aria page cache blocks in use (Aria_pagecache_blocks_used)"));
        assertThat(EngineSample.engineMissing().value(pages)).isEmpty();
        assertThatThrownBy(() -> new EngineMetric("aria.blocks", EngineMetric.Kind.GAUGE, "blocks", "x"))
                .hasMessageContaining("engine metric name 'aria.blocks'");
    }
}
