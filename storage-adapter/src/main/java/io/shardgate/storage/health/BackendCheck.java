package io.shardgate.storage.health;

import java.time.Duration;

/**
 * A periodic check of one backend (its engine's health, a replica's lag, ...), run by that
 * backend's {@link BackendLoop} on the loop's thread, over the loop's one control connection.
 */
public interface BackendCheck {
    /** Time between the starts of two runs. */
    Duration interval();

    /** The longest one run can take before its timeouts end it. */
    Duration longestRun();

    /** Runs once over {@code connection} and reports what it found. Never throws. */
    void run(ControlConnection connection);
}
