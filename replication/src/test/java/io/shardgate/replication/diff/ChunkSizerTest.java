package io.shardgate.replication.diff;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChunkSizerTest {
    private static final long MS = 1_000_000;

    @Test
    void sizeFollowsTheTimeTargetByAtMostTwiceAChunk() {
        ChunkSizer sizer = new ChunkSizer(DiffOptions.defaults());
        assertThat(sizer.rows()).isEqualTo(10_000);
        sizer.observe(10_000, 10_000, 100 * MS);
        assertThat(sizer.rows()).isEqualTo(20_000);
        sizer.observe(10_000, 10_000, 800 * MS);
        assertThat(sizer.rows()).isEqualTo(6_250);
        sizer.observe(6_250, 6_250, 10_000 * MS);
        assertThat(sizer.rows()).isEqualTo(3_125);
        sizer.observe(1_000_000, 1_000_000, 1 * MS);
        assertThat(sizer.rows()).as("capped at the maximum").isEqualTo(1_000_000);
        sizer.observe(1_000, 1_000, 0);
        assertThat(sizer.rows()).isEqualTo(2_000);
        sizer.observe(1_000, 1_000, 5_000 * MS);
        assertThat(sizer.rows()).as("at least the minimum").isEqualTo(1_000);
        sizer.observe(10_000, 40_000, 1_000 * MS);
        assertThat(sizer.rows()).as("an overshooting slow chunk scales what it held").isEqualTo(20_000);
        sizer.observe(10_000, 10, 10 * MS);
        assertThat(sizer.rows()).as("a quick chunk with a gap keeps growing the plan").isEqualTo(20_000);
    }

    @Test
    void optionsAreChecked() {
        DiffOptions defaults = DiffOptions.defaults();
        assertThat(defaults.chunkTime()).isEqualTo(Duration.ofMillis(500));
        assertThat(defaults.narrowRows()).isEqualTo(1_000);
        assertThat(defaults.snapshotHold()).isEqualTo(Duration.ofSeconds(2));
        assertThatThrownBy(() -> defaults.withChunkRows(10, 20, 30))
                .hasMessage("chunk rows: first 10, min 20, max 30 (expected: 1 <= min <= first <= max)");
        assertThatThrownBy(() -> defaults.withNarrowRows(0)).hasMessage("narrowRows: 0 (expected: >= 1)");
        assertThatThrownBy(() -> defaults.withMaxReported(-1)).hasMessage("maxReported: -1 (expected: >= 0)");
    }
}
