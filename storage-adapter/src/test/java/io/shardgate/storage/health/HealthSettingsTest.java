package io.shardgate.storage.health;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HealthSettingsTest {

    @Test
    void defaults() {
        HealthSettings settings = HealthSettings.defaults();
        assertThat(settings.interval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(settings.connectTimeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(settings.socketTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(settings.historyListThreshold()).isEqualTo(100_000);
        assertThat(settings.slowCheckInterval()).isEqualTo(Duration.ofSeconds(60));
        assertThat(settings.statusTimeout()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void mapping() {
        HealthSettings settings = new HealthSettings(Duration.ofMillis(250), Duration.ofMillis(300),
                Duration.ofMillis(400), 5000, Duration.ofSeconds(5), Duration.ofMillis(350));
        assertThat(settings.interval()).isEqualTo(Duration.ofMillis(250));
        assertThat(settings.connectTimeout()).isEqualTo(Duration.ofMillis(300));
        assertThat(settings.socketTimeout()).isEqualTo(Duration.ofMillis(400));
        assertThat(settings.historyListThreshold()).isEqualTo(5000);
        assertThat(settings.slowCheckInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(settings.statusTimeout()).isEqualTo(Duration.ofMillis(350));
        assertThat(settings.withHistoryListThreshold(7).historyListThreshold()).isEqualTo(7);
        assertThat(settings.withSlowCheckInterval(Duration.ofSeconds(9)).slowCheckInterval()).isEqualTo(Duration.ofSeconds(9));
    }

    @Test
    void errors() {
        Duration s = Duration.ofSeconds(1);
        assertThatThrownBy(() -> new HealthSettings(Duration.ZERO, s, s, 1, s, s)).hasMessage("interval: PT0S (expected: > 0)");
        assertThatThrownBy(() -> new HealthSettings(s, null, s, 1, s, s)).hasMessage("connectTimeout is null");
        assertThatThrownBy(() -> new HealthSettings(s, s, Duration.ofMillis(-1), 1, s, s))
                .hasMessage("socketTimeout: PT-0.001S (expected: > 0)");
        assertThatThrownBy(() -> new HealthSettings(s, s, s, 0, s, s)).hasMessage("historyListThreshold: 0 (expected: >= 1)");
        assertThatThrownBy(() -> new HealthSettings(Duration.ofSeconds(2), s, s, 1, s, s))
                .hasMessage("slowCheckInterval: 1000 ms (expected: >= interval, 2000 ms)");
        assertThatThrownBy(() -> new HealthSettings(s, s, s, 1, s, Duration.ofSeconds(3)))
                .hasMessage("statusTimeout: 3000 ms (expected: <= socketTimeout, 1000 ms)");
        assertThatThrownBy(() -> new HealthSettings(s, s, s, 1, s, null)).hasMessage("statusTimeout is null");
    }
}
