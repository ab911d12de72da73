package io.shardgate.tools.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RelayBenchTest {
    @Test
    void defaultsAreTwentySecondsWithTheDigestsComparison() {
        assertThat(RelayBench.Options.parse(List.of())).isEqualTo(new RelayBench.Options(20, true));
        assertThat(RelayBench.Options.parse(List.of("sysbench"))).isEqualTo(new RelayBench.Options(20, true));
    }

    @Test
    void readsTheTimeAndTheDigestsSwitch() {
        assertThat(RelayBench.Options.parse(List.of("--time", "5", "--no-digests-compare")))
                .isEqualTo(new RelayBench.Options(5, false));
        assertThat(RelayBench.Options.parse(List.of("--no-digests-compare", "--digests-compare")))
                .isEqualTo(new RelayBench.Options(20, true));
    }

    @Test
    void refusesUnknownArgumentsAndBadTimes() {
        assertThatThrownBy(() -> RelayBench.Options.parse(List.of("--nope"))).hasMessage("unknown argument '--nope'");
        assertThatThrownBy(() -> RelayBench.Options.parse(List.of("--time"))).hasMessage("--time needs a number");
        assertThatThrownBy(() -> RelayBench.Options.parse(List.of("--time", "0")))
                .hasMessage("--time needs a positive whole number, not '0'");
        assertThatThrownBy(() -> RelayBench.Options.parse(List.of("--time", "x")))
                .hasMessage("--time needs a positive whole number, not 'x'");
    }

    @Test
    void aRowHasTheRatiosTheAddedAverageLatencyAndTheCpuColumns() {
        Measured direct = new Measured(new SysbenchResult(1000, 1000, 0, 0.100, 0.090, 0.2), Double.NaN);
        Measured haproxy = new Measured(new SysbenchResult(800, 800, 0, 0.125, 0.110, 0.2), 12.34);
        Measured shardgate = new Measured(new SysbenchResult(600, 600, 0, 0.160, 0.150, 0.3), 40.0);
        Measured off = new Measured(new SysbenchResult(500, 500, 0, 0.170, 0.160, 0.3), 45.0);
        assertThat(RelayBench.row("oltp_point_select", 16, direct, haproxy, shardgate, off)).isEqualTo(
                "| oltp_point_select | 16 | 1000 | 800 | 600 | 0.80x | 0.60x | 0.75x | 0.100 / 0.125 / 0.160"
                        + " | 0.090 / 0.110 / 0.150 | 25 / 60 | 12.3 / 40.0 | 500 | 1.20x | 45.0 |");
        assertThat(RelayBench.row("oltp_read_only", 1, direct, haproxy, shardgate, null))
                .endsWith("| 12.3 / 40.0 | - | - | - |");
    }
}
