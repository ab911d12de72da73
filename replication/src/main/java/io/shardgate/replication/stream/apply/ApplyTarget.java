package io.shardgate.replication.stream.apply;

/** The server the applier writes to; one {@link TargetSession} per worker. */
public interface ApplyTarget {
    /** Creates the position table when missing and reads it. */
    AppliedPositions load();

    TargetSession open();
}
