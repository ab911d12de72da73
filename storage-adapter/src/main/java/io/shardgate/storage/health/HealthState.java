package io.shardgate.storage.health;

/** A backend's health, from best to worst. */
public enum HealthState {
    /** Serving normally. */
    OK,
    /** Serving, but something needs attention (a long history list, a corrupt index, compaction behind). */
    DEGRADED,
    /** Writes are being stopped or slowed by the engine right now; do not choose it for reads. */
    STALLED,
    /** Unreachable, or the engine is gone or broken; do not use. */
    FAILED;

    public static HealthState worst(HealthState a, HealthState b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
