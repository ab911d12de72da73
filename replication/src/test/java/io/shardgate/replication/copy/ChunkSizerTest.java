package io.shardgate.replication.copy;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChunkSizerTest {
    private static final Duration HALF_SECOND = Duration.ofMillis(500);

    @Test
    void growsAtMostFourfoldTowardsTheTimeTarget() {
        ChunkSizer sizer = new ChunkSizer(HALF_SECOND, 1_000, 100, 1_000_000);
        assertThat(sizer.next()).isEqualTo(1_000);
        sizer.observe(1_000, Duration.ofMillis(50)); // 20,000 rows/s: 0.5 s is 10,000 rows
        assertThat(sizer.next()).isEqualTo(4_000);
        sizer.observe(4_000, Duration.ofMillis(200));
        assertThat(sizer.next()).isEqualTo(10_000);
        sizer.observe(10_000, Duration.ofMillis(500));
        assertThat(sizer.next()).isEqualTo(10_000);
        assertThat(sizer.rowsPerSecond()).isEqualTo(20_000.0);
    }

    @Test
    void shrinksWhenChunksGetSlow() {
        ChunkSizer sizer = new ChunkSizer(HALF_SECOND, 10_000, 100, 1_000_000);
        sizer.observe(10_000, Duration.ofSeconds(5)); // 2,000 rows/s: 1,000 rows per 0.5 s
        assertThat(sizer.next()).isEqualTo(1_000);
        sizer.observe(1_000, Duration.ofSeconds(10)); // smoothed: (2,000 + 100) / 2 = 1,050 rows/s
        assertThat(sizer.next()).isEqualTo(525);
    }

    @Test
    void neverAboveTheCapNorBelowTheMinimum() {
        ChunkSizer sizer = new ChunkSizer(HALF_SECOND, 50_000, 100, 9_000);
        assertThat(sizer.next()).isEqualTo(9_000);
        sizer.observe(9_000, Duration.ofMillis(10));
        assertThat(sizer.next()).isEqualTo(9_000);
        ChunkSizer slow = new ChunkSizer(HALF_SECOND, 1_000, 100, 9_000);
        slow.observe(1_000, Duration.ofHours(1));
        assertThat(slow.next()).isEqualTo(100);
    }

    @Test
    void capLeavesATenthOfTheEnginesRowLockLimit() {
        assertThat(ChunkSizer.capFor(OptionalLong.of(10_000), 100_000)).isEqualTo(9_000);
        assertThat(ChunkSizer.capFor(OptionalLong.of(1_073_741_824), 100_000)).isEqualTo(100_000);
        assertThat(ChunkSizer.capFor(OptionalLong.empty(), 100_000)).isEqualTo(100_000);
    }

    @Test
    void refusesNonsense() {
        assertThatThrownBy(() -> new ChunkSizer(Duration.ZERO, 1, 1, 1)).hasMessageContaining("positive");
        assertThatThrownBy(() -> new ChunkSizer(HALF_SECOND, 1, 10, 5)).hasMessageContaining("min 10, cap 5");
    }
}
