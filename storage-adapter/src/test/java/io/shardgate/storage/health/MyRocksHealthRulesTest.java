package io.shardgate.storage.health;

import org.junit.jupiter.api.Test;

import static io.shardgate.storage.health.EngineMetric.ROCKSDB_BACKGROUND_ERRORS;
import static io.shardgate.storage.health.EngineMetric.ROCKSDB_COMPACTION_PENDING;
import static io.shardgate.storage.health.EngineMetric.ROCKSDB_FLUSH_PENDING;
import static io.shardgate.storage.health.EngineMetric.ROCKSDB_STALL_MICROS;
import static io.shardgate.storage.health.EngineMetric.ROCKSDB_STALL_SLOWDOWNS;
import static io.shardgate.storage.health.EngineMetric.ROCKSDB_STALL_STOPS;
import static org.assertj.core.api.Assertions.assertThat;

class MyRocksHealthRulesTest {
    private final MyRocksHealthRules rules = new MyRocksHealthRules();

    @Test
    void risingStallCountersMeanStalled() {
        EngineSample before = Samples.of(ROCKSDB_STALL_STOPS, 4, ROCKSDB_STALL_SLOWDOWNS, 0, ROCKSDB_STALL_MICROS, 3_000_000);
        EngineSample after = Samples.of(ROCKSDB_STALL_STOPS, 6, ROCKSDB_STALL_SLOWDOWNS, 0, ROCKSDB_STALL_MICROS, 4_800_000);
        Judgement judgement = rules.judge(before, after);
        assertThat(judgement.state()).isEqualTo(HealthState.STALLED);
        assertThat(judgement.reasons())
                .containsExactly("writes stalled: +2 stops, +0 slowdowns, +1800 ms stalled since the last probe");
    }

    @Test
    void slowdownsAloneCountToo() {
        assertThat(rules.judge(Samples.of(ROCKSDB_STALL_SLOWDOWNS, 1), Samples.of(ROCKSDB_STALL_SLOWDOWNS, 2)).state())
                .isEqualTo(HealthState.STALLED);
    }

    @Test
    void countersThatDoNotAnswerInTimeMeanWritesAreStopped() {
        Judgement judgement = rules.judge(Samples.of(ROCKSDB_STALL_STOPS, 4), Samples.blocked());
        assertThat(judgement.state()).isEqualTo(HealthState.STALLED);
        assertThat(judgement.reasons()).containsExactly("writes stopped: the stall counters did not answer in time"
                + " (MyRocks holds the global status while writes are stopped)");
        assertThat(rules.judge(Samples.blocked(), Samples.of(ROCKSDB_STALL_STOPS, 9)).state())
                .as("nothing to compare with after a blocked probe").isEqualTo(HealthState.OK);
    }

    @Test
    void flatCountersAreOkHowEverHighTheyAre() {
        EngineSample sample = Samples.of(ROCKSDB_STALL_STOPS, 12, ROCKSDB_STALL_MICROS, 10_394_631);
        assertThat(rules.judge(sample, sample)).isEqualTo(Judgement.ok());
    }

    @Test
    void theFirstProbeHasNothingToCompare() {
        assertThat(rules.judge(null, Samples.of(ROCKSDB_STALL_STOPS, 12)).state()).isEqualTo(HealthState.OK);
    }

    @Test
    void aRestartedServerIsNotStalled() {
        assertThat(rules.judge(Samples.of(ROCKSDB_STALL_STOPS, 12), Samples.of(ROCKSDB_STALL_STOPS, 0)).state())
                .isEqualTo(HealthState.OK);
    }

    @Test
    void pendingForTwoProbesIsDegradedOnceIsNot() {
        EngineSample pending = Samples.of(ROCKSDB_COMPACTION_PENDING, 1, ROCKSDB_FLUSH_PENDING, 1);
        assertThat(rules.judge(Samples.of(), pending).state()).isEqualTo(HealthState.OK);
        Judgement twice = rules.judge(pending, pending);
        assertThat(twice.state()).isEqualTo(HealthState.DEGRADED);
        assertThat(twice.reasons()).containsExactly("compaction pending in 1 column families for two probes",
                "memtable flush pending in 1 column families for two probes");
    }

    @Test
    void backgroundErrors() {
        Judgement fresh = rules.judge(Samples.of(ROCKSDB_BACKGROUND_ERRORS, 0), Samples.of(ROCKSDB_BACKGROUND_ERRORS, 1));
        assertThat(fresh.state()).isEqualTo(HealthState.FAILED);
        assertThat(fresh.reasons()).containsExactly("1 new background errors since the last probe");
        Judgement old = rules.judge(Samples.of(ROCKSDB_BACKGROUND_ERRORS, 1), Samples.of(ROCKSDB_BACKGROUND_ERRORS, 1));
        assertThat(old.state()).isEqualTo(HealthState.DEGRADED);
    }

    @Test
    void theWorstFindingWins() {
        EngineSample before = Samples.of(ROCKSDB_STALL_STOPS, 1, ROCKSDB_COMPACTION_PENDING, 1);
        EngineSample after = Samples.of(ROCKSDB_STALL_STOPS, 2, ROCKSDB_COMPACTION_PENDING, 1);
        Judgement judgement = rules.judge(before, after);
        assertThat(judgement.state()).isEqualTo(HealthState.STALLED);
        assertThat(judgement.reasons()).hasSize(2);
    }

    @Test
    void aMissingEngineFails() {
        Judgement judgement = rules.judge(Samples.of(), EngineSample.engineMissing());
        assertThat(judgement.state()).isEqualTo(HealthState.FAILED);
        assertThat(judgement.reasons()).containsExactly("engine ROCKSDB is not loaded");
    }
}
