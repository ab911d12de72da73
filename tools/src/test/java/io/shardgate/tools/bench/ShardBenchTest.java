package io.shardgate.tools.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ShardBenchTest {
    @Test
    void aRowComparesTwoShardsWithOneAndEveryTargetWithDirect() {
        Measured direct = new Measured(new SysbenchResult(1000, 1000, 0, 0.100, 0.090, 0.2), Double.NaN);
        Measured haproxy = new Measured(new SysbenchResult(800, 800, 0, 0.125, 0.110, 0.2), 12.0);
        Measured one = new Measured(new SysbenchResult(700, 700, 0, 0.140, 0.130, 0.3), 30.0);
        Measured two = new Measured(new SysbenchResult(560, 560, 0, 0.180, 0.170, 0.3), 41.25);
        assertThat(ShardBench.row(16, direct, haproxy, one, two)).isEqualTo(
                "| 16 | 1000 | 800 | 700 | 560 | 0.80x | 0.70x | 0.56x | 0.80x | 0.100 / 0.125 / 0.140 / 0.180"
                        + " | 0.090 / 0.110 / 0.130 / 0.170 | 12.0 / 30.0 / 41.3 |");
    }
}
