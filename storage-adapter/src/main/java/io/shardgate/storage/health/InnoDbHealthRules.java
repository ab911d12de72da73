package io.shardgate.storage.health;

/**
 * InnoDB's health: FAILED when the engine is not loaded; DEGRADED when the history list length
 * is above the configured threshold (an old read view holds back purge, so undo logs and reads
 * grow) or when an index is marked corrupt. Example with threshold 1000: length 1500 gives
 * DEGRADED "history list length 1500 above 1000"; 20 gives OK.
 */
public final class InnoDbHealthRules implements HealthRules {
    private final long historyListThreshold;

    public InnoDbHealthRules(HealthSettings settings) {
        this.historyListThreshold = settings.historyListThreshold();
    }

    @Override
    public Judgement judge(EngineSample previous, EngineSample current) {
        if (!current.engineLoaded()) {
            return new Judgement.Builder().add(HealthState.FAILED, "engine InnoDB is not loaded").build();
        }
        Judgement.Builder judgement = new Judgement.Builder();
        current.value(EngineMetric.INNODB_HISTORY_LIST_LENGTH).ifPresent(length -> {
            if (length > historyListThreshold) {
                judgement.add(HealthState.DEGRADED, "history list length " + length + " above " + historyListThreshold
                        + " (an old read view holds back purge)");
            }
        });
        if (!current.corruptIndexes().isEmpty()) {
            judgement.add(HealthState.DEGRADED, "indexes marked corrupt: " + String.join(", ", current.corruptIndexes()));
        }
        return judgement.build();
    }
}
