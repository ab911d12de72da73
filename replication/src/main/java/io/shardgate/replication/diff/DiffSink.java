package io.shardgate.replication.diff;

/**
 * Where a diff reports, as it goes: each differing row (up to {@link DiffOptions#maxReported} over the
 * whole diff, resumed runs included) and a checkpoint after every chunk, which the caller stores to
 * resume from. A differing row is reported before the checkpoint of its chunk. Calls come one at a time,
 * though those of the ownership check from the diff's worker threads.
 */
public interface DiffSink {

    void mismatch(Mismatch mismatch);

    void checkpoint(DiffCheckpoint checkpoint);
}
