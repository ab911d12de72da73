package io.shardgate.replication.copy;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * The copy's knobs.
 *
 * @param chunkTime     what one chunk should take; the size follows the measured rate ({@link ChunkSizer})
 * @param initialChunk  the first chunk's rows
 * @param maxChunk      the most rows of a chunk (lower when a target engine caps row locks)
 * @param snapshotTime  how long one consistent snapshot serves chunks before the copy catches up and
 *                      takes a new one: longer copies faster (fewer catch-ups) but holds old row
 *                      versions on the source longer (its history list grows)
 * @param throttlePause how long to wait before asking a throttle again
 * @param streamWorkers apply workers of each target's change stream
 */
public record CopySettings(Duration chunkTime, int initialChunk, int maxChunk, Duration snapshotTime,
                           Duration throttlePause, int streamWorkers) {
    public CopySettings {
        requireNonNull(chunkTime, "chunkTime is null");
        requireNonNull(snapshotTime, "snapshotTime is null");
        requireNonNull(throttlePause, "throttlePause is null");
        if (initialChunk < 1 || maxChunk < initialChunk) {
            throw new IllegalArgumentException("need 1 <= initialChunk <= maxChunk: " + initialChunk + ", " + maxChunk);
        }
        if (streamWorkers < 1) {
            throw new IllegalArgumentException("streamWorkers must be at least 1: " + streamWorkers);
        }
    }

    /** 0.5 s chunks starting at 1,000 rows, at most 100,000; 10 s per snapshot; 1 s throttle pause; 4 workers. */
    public static CopySettings defaults() {
        return new CopySettings(Duration.ofMillis(500), 1_000, 100_000, Duration.ofSeconds(10), Duration.ofSeconds(1), 4);
    }

    public CopySettings withInitialChunk(int rows) {
        return new CopySettings(chunkTime, rows, Math.max(rows, maxChunk), snapshotTime, throttlePause, streamWorkers);
    }

    public CopySettings withMaxChunk(int rows) {
        return new CopySettings(chunkTime, Math.min(initialChunk, rows), rows, snapshotTime, throttlePause, streamWorkers);
    }

    public CopySettings withSnapshotTime(Duration time) {
        return new CopySettings(chunkTime, initialChunk, maxChunk, time, throttlePause, streamWorkers);
    }

    public CopySettings withThrottlePause(Duration pause) {
        return new CopySettings(chunkTime, initialChunk, maxChunk, snapshotTime, pause, streamWorkers);
    }
}
