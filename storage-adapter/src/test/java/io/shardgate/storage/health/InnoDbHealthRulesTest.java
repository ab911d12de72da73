package io.shardgate.storage.health;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.shardgate.storage.health.EngineMetric.INNODB_HISTORY_LIST_LENGTH;
import static org.assertj.core.api.Assertions.assertThat;

class InnoDbHealthRulesTest {
    private final InnoDbHealthRules rules = new InnoDbHealthRules(HealthSettings.defaults().withHistoryListThreshold(1000));

    @Test
    void historyListAboveTheThresholdIsDegraded() {
        Judgement judgement = rules.judge(null, Samples.of(INNODB_HISTORY_LIST_LENGTH, 1500));
        assertThat(judgement.state()).isEqualTo(HealthState.DEGRADED);
        assertThat(judgement.reasons())
                .containsExactly("history list length 1500 above 1000 (an old read view holds back purge)");
        assertThat(rules.judge(null, Samples.of(INNODB_HISTORY_LIST_LENGTH, 1000)).state()).isEqualTo(HealthState.OK);
        assertThat(rules.judge(null, Samples.of(INNODB_HISTORY_LIST_LENGTH, 20)).state()).isEqualTo(HealthState.OK);
    }

    @Test
    void corruptIndexesAreDegraded() {
        EngineSample sample = new EngineSample(true, Map.of(INNODB_HISTORY_LIST_LENGTH, 3L),
                List.of("shop/orders.k_customer"), Map.of(), true, false);
        Judgement judgement = rules.judge(null, sample);
        assertThat(judgement.state()).isEqualTo(HealthState.DEGRADED);
        assertThat(judgement.reasons()).containsExactly("indexes marked corrupt: shop/orders.k_customer");
    }

    @Test
    void aMissingEngineFails() {
        assertThat(rules.judge(null, EngineSample.engineMissing()).reasons()).containsExactly("engine InnoDB is not loaded");
    }
}
