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
 * @param writersPerTarget connections writing each chunk to a target, each a contiguous slice of its rows
 *                      in its own transaction (the server parses and inserts one statement per connection
 *                      at a time; two keep it busy while the other's statement travels)
 */
public record CopySettings(Duration chunkTime, int initialChunk, int maxChunk, Duration snapshotTime,
                           Duration throttlePause, int streamWorkers, int writersPerTarget) {
    public CopySettings {
        requireNonNull(chunkTime, "chunkTime is null");
        requireNonNull(snapshotTime, "snapshotTime is null");
        requireNonNull(throttlePause, "throttlePause is null");
        if (initialChunk < 1 || maxChunk < initialChunk) {
            throw new IllegalArgumentException("need 1 <= initialChunk <= maxChunk: " + initialChunk + ", " + maxChunk);
        }
        if (writersPerTarget < 1) {
            throw new IllegalArgumentException("writersPerTarget must be at least 1: " + writersPerTarget);
        }
        if (streamWorkers < 1) {
            throw new IllegalArgumentException("streamWorkers must be at least 1: " + streamWorkers);
        }
    }

    /** 0.5 s chunks starting at 1,000 rows, at most 100,000; 10 s per snapshot; 1 s throttle pause; 4 stream workers; 2 writers. */
    public static CopySettings defaults() {
        return new CopySettings(Duration.ofMillis(500), 1_000, 100_000, Duration.ofSeconds(10), Duration.ofSeconds(1), 4, 2);
    }

    /**
     * What the reshard and move jobs run with: {@link #defaults()} but 30 s per snapshot and 4 writers per target. Each
     * catch-up between snapshots starts a binlog reader per target and copies nothing meanwhile (1.4 s each, 4 of them
     * in a 40 s copy of 500k rows under sysbench load; 2 with 30 s snapshots); a job's throttle still ends a snapshot
     * early when the source's history list passes its bound. Four writers per target: on a busy machine the targets'
     * writes bound the copy (the reader waits for them most of the time), and each writer is a session of its own on
     * the target server.
     */
    public static CopySettings forJobs() {
        return defaults().withSnapshotTime(Duration.ofSeconds(30)).withWritersPerTarget(4);
    }

    public CopySettings withWritersPerTarget(int writers) {
        return new CopySettings(chunkTime, initialChunk, maxChunk, snapshotTime, throttlePause, streamWorkers, writers);
    }

    public CopySettings withInitialChunk(int rows) {
        return new CopySettings(chunkTime, rows, Math.max(rows, maxChunk), snapshotTime, throttlePause, streamWorkers, writersPerTarget);
    }

    public CopySettings withMaxChunk(int rows) {
        return new CopySettings(chunkTime, Math.min(initialChunk, rows), rows, snapshotTime, throttlePause, streamWorkers,
                writersPerTarget);
    }

    public CopySettings withSnapshotTime(Duration time) {
        return new CopySettings(chunkTime, initialChunk, maxChunk, time, throttlePause, streamWorkers, writersPerTarget);
    }

    public CopySettings withThrottlePause(Duration pause) {
        return new CopySettings(chunkTime, initialChunk, maxChunk, snapshotTime, pause, streamWorkers, writersPerTarget);
    }
}
