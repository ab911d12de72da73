package io.shardgate.proxy.digest;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LatencyHistogramTest {

    @Test
    void bucketsAreLogLinearAndBoundTheirValues() {
        for (long micros : new long[] {0, 1, 3, 4, 5, 7, 8, 100, 999, 1000, 123_456, 59_000_000}) {
            int bucket = LatencyHistogram.bucket(micros);
            assertThat(LatencyHistogram.upperBound(bucket)).as("upper bound of " + micros).isGreaterThan(micros);
            assertThat(LatencyHistogram.upperBound(bucket)).as("at most 25%% above " + micros)
                    .isLessThanOrEqualTo(Math.max(micros + 1, micros + micros / 4 + 1));
            if (bucket > 0) {
                assertThat(LatencyHistogram.upperBound(bucket - 1)).as("lower bound of " + micros).isLessThanOrEqualTo(micros);
            }
        }
        assertThat(LatencyHistogram.bucket(Long.MAX_VALUE / 1000)).isEqualTo(LatencyHistogram.BUCKETS - 1);
        assertThat(LatencyHistogram.bucket(60_000_000)).isLessThan(LatencyHistogram.BUCKETS - 1);
    }

    @Test
    void percentilesOfAKnownDistribution() {
        LatencyHistogram histogram = new LatencyHistogram();
        assertThat(histogram.percentile(0.99)).isZero();
        // 1..1000 µs, once each.
        for (long micros = 1; micros <= 1000; micros++) {
            histogram.record(micros * 1000);
        }
        assertThat(histogram.percentile(0.50)).isBetween(500L, 625L);
        assertThat(histogram.percentile(0.95)).isBetween(950L, 1188L);
        assertThat(histogram.percentile(0.99)).isBetween(990L, 1238L);
        assertThat(histogram.percentile(1.0)).isBetween(1000L, 1250L);
    }

    @Test
    void aFewSlowStatementsShowInP99NotP50() {
        LatencyHistogram histogram = new LatencyHistogram();
        for (int i = 0; i < 980; i++) {
            histogram.record(200_000); // 200 µs
        }
        for (int i = 0; i < 20; i++) {
            histogram.record(2_000_000_000L); // 2 s
        }
        assertThat(histogram.percentile(0.50)).isBetween(200L, 250L);
        assertThat(histogram.percentile(0.99)).isBetween(2_000_000L, 2_500_000L);
    }
}
