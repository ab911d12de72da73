package io.shardgate.tools.bench;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MemoryBenchTest {
    @Test
    void defaultsAreALimitOfOneHundredThousandThreeTimesTheRowsAndTenRuns() {
        assertThat(MemoryBench.Options.parse(List.of())).isEqualTo(new MemoryBench.Options(300_000, 100_000, 10, null));
    }

    @Test
    void theRowsFollowTheLimitUnlessGiven() {
        assertThat(MemoryBench.Options.parse(List.of("--limit", "50")).rows()).isEqualTo(150);
        assertThat(MemoryBench.Options.parse(List.of("--rows", "7", "--limit", "50", "--repeat", "2", "--proxy-jar", "x.jar")))
                .isEqualTo(new MemoryBench.Options(7, 50, 2, Path.of("x.jar")));
    }

    @Test
    void refusesUnknownArgumentsAndNonPositiveNumbers() {
        assertThatThrownBy(() -> MemoryBench.Options.parse(List.of("--time", "1"))).hasMessage("unknown argument '--time'");
        assertThatThrownBy(() -> MemoryBench.Options.parse(List.of("--limit", "0")))
                .hasMessage("--limit needs a positive whole number, not '0'");
        assertThatThrownBy(() -> MemoryBench.Options.parse(List.of("--proxy-jar"))).hasMessage("--proxy-jar needs a path");
    }

    @Test
    void heapOfAJstatLineAddsTheSurvivorsEdenAndOldGeneration() {
        String header = "    S0C         S1C         S0U         S1U          EC           EU           OC           OU"
                + "          MC         MU       CCSC      CCSU     YGC     YGCT     FGC    FGCT     CGC    CGCT       GCT   ";
        String values = "        0.0      1024.0         0.0       512.5      19456.0      12288.0     367616.0       2048.4"
                + "        0.0        0.0       0.0       0.0      0     0.000     0     0.000     0     0.000     0.000";
        HeapProbe.Heap heap = HeapProbe.Heap.parse(header, values);
        assertThat(heap).isEqualTo(new HeapProbe.Heap(14849, 2048));
        assertThat(heap.usedMb()).isEqualTo("14.5");
        assertThatThrownBy(() -> HeapProbe.Heap.parse(header, "1.0 2.0")).hasMessageContaining("does not match its header");
    }

    @Test
    void theListeningLineGivesTheClientPort() {
        assertThat(ProxyProcess.listeningPort("starting\nShardgate listening on 127.0.0.1:40123 (epoll), admin on 127.0.0.1:40124\n"))
                .hasValue(40123);
        assertThat(ProxyProcess.listeningPort("shardgate run: no such file")).isEmpty();
    }
}
