package io.shardgate.storage.health;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.shardgate.storage.health.EngineMetric.INNODB_CORRUPT_INDEXES;
import static io.shardgate.storage.health.EngineMetric.INNODB_HISTORY_LIST_LENGTH;
import static io.shardgate.storage.health.EngineMetric.TABLE_ALLOCATED_BYTES;
import static org.assertj.core.api.Assertions.assertThat;

class EngineSampleTest {

    @Test
    void growth() {
        EngineSample before = Samples.of(INNODB_HISTORY_LIST_LENGTH, 10);
        assertThat(Samples.of(INNODB_HISTORY_LIST_LENGTH, 15).growthSince(before, INNODB_HISTORY_LIST_LENGTH)).isEqualTo(5);
        assertThat(Samples.of(INNODB_HISTORY_LIST_LENGTH, 5).growthSince(before, INNODB_HISTORY_LIST_LENGTH)).isZero();
        assertThat(Samples.of().growthSince(before, INNODB_HISTORY_LIST_LENGTH)).isZero();
        assertThat(before.growthSince(null, INNODB_HISTORY_LIST_LENGTH)).isZero();
    }

    @Test
    void fastSamplesCarryTheLastSlowResults() {
        EngineSample slow = new EngineSample(true, Map.of(INNODB_CORRUPT_INDEXES, 1L, TABLE_ALLOCATED_BYTES, 4096L),
                List.of("db/t.k"), Map.of("db.t", 4096L), true, false);
        EngineSample fast = Samples.of(INNODB_HISTORY_LIST_LENGTH, 7);
        EngineSample merged = fast.withSlowResultsOf(slow);
        assertThat(merged.values()).containsEntry(INNODB_HISTORY_LIST_LENGTH, 7L).containsEntry(INNODB_CORRUPT_INDEXES, 1L)
                .containsEntry(TABLE_ALLOCATED_BYTES, 4096L);
        assertThat(merged.corruptIndexes()).containsExactly("db/t.k");
        assertThat(merged.tableBytes()).containsEntry("db.t", 4096L);
        assertThat(slow.withSlowResultsOf(slow)).isSameAs(slow);
        assertThat(fast.withSlowResultsOf(null)).isSameAs(fast);
    }
}
