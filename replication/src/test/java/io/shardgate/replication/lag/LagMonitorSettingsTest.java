package io.shardgate.replication.lag;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LagMonitorSettingsTest {

    @Test
    void defaults() {
        assertThat(LagMonitorSettings.defaults()).isEqualTo(new LagMonitorSettings(Duration.ofMillis(50),
                Duration.ofMillis(500), Duration.ofMillis(500), Duration.ofMillis(650), 10_000));
    }

    @Test
    void staleAfterIsThreeIntervalsPlusTheLongerTimeout() {
        LagMonitorSettings settings = LagMonitorSettings.of(Duration.ofMillis(100), Duration.ofSeconds(2),
                Duration.ofMillis(300));

        assertThat(settings.staleAfter()).isEqualTo(Duration.ofMillis(2_300));
        assertThat(settings.longestPoll()).isEqualTo(Duration.ofMillis(2_600));
    }

    @Test
    void rejectsNonsense() {
        assertThatThrownBy(() -> LagMonitorSettings.of(Duration.ZERO, Duration.ofMillis(1), Duration.ofMillis(1)))
                .hasMessage("pollInterval: PT0S (expected: > 0)");
        assertThatThrownBy(() -> new LagMonitorSettings(Duration.ofMillis(50), Duration.ofMillis(500),
                Duration.ofMillis(500), Duration.ofMillis(50), 10_000))
                .hasMessage("staleAfter: 50 ms (expected: > pollInterval, 50 ms)");
        assertThatThrownBy(() -> new LagMonitorSettings(Duration.ofMillis(50), Duration.ofMillis(500),
                Duration.ofMillis(500), Duration.ofMillis(650), 3))
                .hasMessage("maxTimelineEntries: 3 (expected: >= 16)");
        assertThatThrownBy(() -> new LagMonitorSettings(Duration.ofMillis(50), null,
                Duration.ofMillis(500), Duration.ofMillis(650), 100))
                .hasMessage("connectTimeout is null");
    }
}
