package io.shardgate.storage.health;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

class EngineMetricTest {

    @Test
    void namesAreStableUniqueAndPrefixed() {
        assertThat(Arrays.stream(EngineMetric.values()).map(EngineMetric::metricName))
                .doesNotHaveDuplicates()
                .allMatch(name -> name.matches("shardgate\\.engine\\.[a-z.]+"));
        assertThat(EngineMetric.ROCKSDB_STALL_STOPS.metricName()).isEqualTo("shardgate.engine.rocksdb.stall.stops");
        assertThat(EngineMetric.INNODB_HISTORY_LIST_LENGTH.metricName()).isEqualTo("shardgate.engine.innodb.history.list.length");
    }
}
