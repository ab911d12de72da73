package io.shardgate.replication.stream.apply;

import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.stream.TableFilter;
import io.shardgate.replication.stream.history.TableShape;
import io.shardgate.replication.stream.history.TableVersion;

import java.util.List;

/** The server the applier writes to; one {@link TargetSession} per worker. */
public interface ApplyTarget {
    /** Creates the position table when missing and reads it. */
    AppliedPositions load();

    TargetSession open();

    /**
     * Records that every source transaction up to {@code floor} is in the target, for every schema (it was loaded from
     * a consistent snapshot there), raising each domain's stored floor, never lowering it; {@link #load()} reads it
     * back as {@link AppliedPositions#floor()}.
     */
    void saveFloor(MariaDbGtidPosition floor);

    /** The schema history stored with the positions (every stored version); empty when none is kept. */
    default List<TableVersion> loadSchemaHistory() {
        return List.of();
    }

    /** Stores versions taken when a stream starts without a stored history. */
    default void saveSchemaHistory(List<TableVersion> versions) {
    }

    /** The target's present shapes of the tables {@code filter} carries; empty when it cannot tell. */
    default List<TableShape> presentShapes(TableFilter filter) {
        return List.of();
    }
}
