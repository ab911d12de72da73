package io.shardgate.storage.health;

import java.util.Locale;

/**
 * MyRocks' health:
 * <ul>
 *   <li>FAILED when the engine is no longer loaded, or background errors grew since the last
 *       probe (RocksDB stops accepting writes after a background error);</li>
 *   <li>STALLED when any stall counter (stops, slowdowns, stalled microseconds) grew since the
 *       last probe, or the counters could not be read in time (MyRocks holds the global status
 *       while writes are stopped): writers are waiting for flushes or compactions;</li>
 *   <li>DEGRADED when a compaction or a memtable flush was pending at this probe and the one
 *       before (a single pending flush is ordinary under writes), or background errors happened
 *       since the server started.</li>
 * </ul>
 * Examples, with one probe a second: stops 4 then 6 gives STALLED "writes stalled: +2 stops,
 * +0 slowdowns, +1800 ms stalled since the last probe"; stops 6 then 6 gives OK again.
 */
public final class MyRocksHealthRules implements HealthRules {

    @Override
    public Judgement judge(EngineSample previous, EngineSample current) {
        if (!current.engineLoaded()) {
            return new Judgement.Builder().add(HealthState.FAILED, "engine ROCKSDB is not loaded").build();
        }
        Judgement.Builder judgement = new Judgement.Builder();
        if (current.countersBlocked()) {
            judgement.add(HealthState.STALLED, "writes stopped: the stall counters did not answer in time"
                    + " (MyRocks holds the global status while writes are stopped)");
        }
        long stops = current.growthSince(previous, EngineMetric.ROCKSDB_STALL_STOPS);
        long slowdowns = current.growthSince(previous, EngineMetric.ROCKSDB_STALL_SLOWDOWNS);
        long micros = current.growthSince(previous, EngineMetric.ROCKSDB_STALL_MICROS);
        if (stops > 0 || slowdowns > 0 || micros > 0) {
            judgement.add(HealthState.STALLED, String.format(Locale.ROOT,
                    "writes stalled: +%d stops, +%d slowdowns, +%d ms stalled since the last probe",
                    stops, slowdowns, micros / 1000));
        }
        long newErrors = current.growthSince(previous, EngineMetric.ROCKSDB_BACKGROUND_ERRORS);
        long errors = current.value(EngineMetric.ROCKSDB_BACKGROUND_ERRORS).orElse(0);
        if (newErrors > 0) {
            judgement.add(HealthState.FAILED, newErrors + " new background errors since the last probe");
        } else if (errors > 0) {
            judgement.add(HealthState.DEGRADED, errors + " background errors since the server started");
        }
        pendingBoth(judgement, previous, current, EngineMetric.ROCKSDB_COMPACTION_PENDING, "compaction");
        pendingBoth(judgement, previous, current, EngineMetric.ROCKSDB_FLUSH_PENDING, "memtable flush");
        return judgement.build();
    }

    private static void pendingBoth(Judgement.Builder judgement, EngineSample previous, EngineSample current,
                                    EngineMetric metric, String what) {
        long now = current.value(metric).orElse(0);
        long before = previous == null ? 0 : previous.value(metric).orElse(0);
        if (now > 0 && before > 0) {
            judgement.add(HealthState.DEGRADED, what + " pending in " + now + " column families for two probes");
        }
    }
}
