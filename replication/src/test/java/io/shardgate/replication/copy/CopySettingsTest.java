package io.shardgate.replication.copy;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CopySettingsTest {

    @Test
    void defaults() {
        CopySettings settings = CopySettings.defaults();
        assertThat(settings.chunkTime()).isEqualTo(Duration.ofMillis(500));
        assertThat(settings.initialChunk()).isEqualTo(1_000);
        assertThat(settings.maxChunk()).isEqualTo(100_000);
        assertThat(settings.snapshotTime()).isEqualTo(Duration.ofSeconds(10));
        assertThat(settings.throttlePause()).isEqualTo(Duration.ofSeconds(1));
        assertThat(settings.streamWorkers()).isEqualTo(4);
        assertThat(settings.writersPerTarget()).isEqualTo(2);
    }

    @Test
    void eachWitherChangesItsOwnValue() {
        CopySettings settings = CopySettings.defaults().withInitialChunk(300).withMaxChunk(500)
                .withSnapshotTime(Duration.ofMillis(200)).withThrottlePause(Duration.ofMillis(10)).withWritersPerTarget(3);
        assertThat(settings).isEqualTo(new CopySettings(Duration.ofMillis(500), 300, 500, Duration.ofMillis(200),
                Duration.ofMillis(10), 4, 3));
        assertThat(CopySettings.defaults().withMaxChunk(100).initialChunk()).isEqualTo(100);
    }

    @Test
    void refusesNonsense() {
        assertThatThrownBy(() -> CopySettings.defaults().withWritersPerTarget(0)).hasMessage("writersPerTarget must be at least 1: 0");
        assertThatThrownBy(() -> new CopySettings(Duration.ofMillis(500), 10, 5, Duration.ZERO, Duration.ZERO, 1, 1))
                .hasMessage("need 1 <= initialChunk <= maxChunk: 10, 5");
    }
}
