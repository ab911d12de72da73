package io.shardgate.storage.health;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SemiSyncTest {

    @Test
    void enabledWithAfterSyncIsWhatSemiSyncDurabilityNeeds() {
        assertThat(SemiSync.misconfiguration(Map.of("RPL_SEMI_SYNC_MASTER_ENABLED", "ON",
                "RPL_SEMI_SYNC_MASTER_WAIT_POINT", "AFTER_SYNC"))).isEmpty();
    }

    @Test
    void eachMissingSettingIsNamedWithWhatItShouldBe() {
        assertThat(SemiSync.misconfiguration(Map.of("RPL_SEMI_SYNC_MASTER_ENABLED", "OFF",
                "RPL_SEMI_SYNC_MASTER_WAIT_POINT", "AFTER_SYNC")))
                .containsExactly("rpl_semi_sync_master_enabled is OFF (expected: ON)");
        assertThat(SemiSync.misconfiguration(Map.of("RPL_SEMI_SYNC_MASTER_ENABLED", "ON",
                "RPL_SEMI_SYNC_MASTER_WAIT_POINT", "AFTER_COMMIT")))
                .containsExactly("rpl_semi_sync_master_wait_point is AFTER_COMMIT (expected: AFTER_SYNC)");
        assertThat(SemiSync.misconfiguration(Map.of())).containsExactly(
                "rpl_semi_sync_master_enabled is not set (semi-sync unavailable) (expected: ON)",
                "rpl_semi_sync_master_wait_point is not set (semi-sync unavailable) (expected: AFTER_SYNC)");
    }

    @Test
    void degradedReasonsAddToTheEnginesJudgement() {
        Judgement stalled = new Judgement(HealthState.STALLED, List.of("stall counters rising"));
        assertThat(stalled.and(HealthState.DEGRADED, List.of(SemiSync.FALLEN_BACK)))
                .isEqualTo(new Judgement(HealthState.STALLED, List.of("stall counters rising", SemiSync.FALLEN_BACK)));
        assertThat(Judgement.ok().and(HealthState.DEGRADED, List.of(SemiSync.FALLEN_BACK)))
                .isEqualTo(new Judgement(HealthState.DEGRADED, List.of(SemiSync.FALLEN_BACK)));
        assertThat(Judgement.ok().and(HealthState.DEGRADED, List.of())).isEqualTo(Judgement.ok());
    }
}
