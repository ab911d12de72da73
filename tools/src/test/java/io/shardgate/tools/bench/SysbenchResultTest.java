package io.shardgate.tools.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class SysbenchResultTest {
    private static final String OUTPUT = """
            Latency histogram (values are in milliseconds)
                   value  ------------- distribution ------------- count
                   0.100 |**********                               10
                   0.200 |****************************************  40
                   0.300 |**************************************** 45
                   1.500 |*****                                    5

            SQL statistics:
                queries performed:
                    read:                            1000
                transactions:                        100    (50.25 per sec.)
                queries:                             1000   (502.50 per sec.)
                ignored errors:                      0      (0.00 per sec.)
                reconnects:                          0      (0.00 per sec.)

            Latency (ms):
                     min:                                    0.08
                     avg:                                    0.25
                     max:                                    1.52
                     95th percentile:                        0.30
                     sum:                                   25.00
            """;

    @Test
    void readsThroughputErrorsAndPercentilesFromTheHistogram() {
        SysbenchResult result = SysbenchResult.parse(OUTPUT);
        assertThat(result.tps()).isEqualTo(50.25);
        assertThat(result.errors()).isZero();
        assertThat(result.p50Millis()).isEqualTo(0.200);
        assertThat(result.p95Millis()).isEqualTo(0.300);
    }

    @Test
    void readsTheQueryCountAndTheAverageLatencySysbenchPrints() {
        SysbenchResult result = SysbenchResult.parse(OUTPUT);
        assertThat(result.queries()).isEqualTo(1000);
        assertThat(result.avgMillis()).isEqualTo(0.25);
    }

    @Test
    void theAverageIsTheLatencySumOverTheEventsWhenBothArePrinted() {
        String finer = OUTPUT.replace("sum:                                   25.00", "sum:                                   23.45")
                + "\nGeneral statistics:\n    total time:                          1.0000s\n"
                + "    total number of events:              100\n";
        assertThat(SysbenchResult.parse(finer).avgMillis()).isCloseTo(0.2345, within(1e-9));
    }

    @Test
    void refusesOutputWithoutAnAverageLatency() {
        assertThatThrownBy(() -> SysbenchResult.parse(OUTPUT.replace("avg:", "mean:")))
                .hasMessageContaining("no average latency");
    }

    @Test
    void refusesOutputWithoutAHistogram() {
        assertThatThrownBy(() -> SysbenchResult.parse(OUTPUT.replaceAll("(?m)^\\s+[0-9.]+ \\|.*$", "")))
                .hasMessageContaining("no latency histogram");
        assertThatThrownBy(() -> SysbenchResult.parse("nonsense")).hasMessageContaining("not sysbench run output");
    }
}
