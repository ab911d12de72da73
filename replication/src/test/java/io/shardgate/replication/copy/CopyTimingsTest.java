package io.shardgate.replication.copy;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CopyTimingsTest {

    @Test
    void countsAndAddsUpEachStage() {
        CopyTimings timings = new CopyTimings();
        timings.add("read", 1_500_000_000L);
        timings.add("write s2", 250_000_000L);
        timings.add("read", 500_000_000L);

        assertThat(timings.count("read")).isEqualTo(2);
        assertThat(timings.nanos("read")).isEqualTo(2_000_000_000L);
        assertThat(timings.count("checkpoint")).isZero();
        assertThat(timings.summary()).isEqualTo("read 2 x 2.00 s, write s2 1 x 0.25 s");
    }

    @Test
    void sinceMeasuresUpToNow() {
        CopyTimings timings = new CopyTimings();
        long started = System.nanoTime() - 3_000_000_000L;
        timings.since("catch-up", started);

        assertThat(timings.nanos("catch-up")).isGreaterThanOrEqualTo(3_000_000_000L);
    }
}
