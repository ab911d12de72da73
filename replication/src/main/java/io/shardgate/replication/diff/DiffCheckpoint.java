package io.shardgate.replication.diff;

import io.shardgate.storage.checksum.TableName;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A diff's progress, small and independent of the table's size, handed to the sink after every chunk;
 * {@link TableDiff#run} resumes from one. Every primary key below {@code comparedBelow} has been
 * compared (an empty list: nothing yet, unless {@code finished}).
 *
 * @param comparedBelow        the lower bound of the next chunk: its key values, as the driver read them
 * @param finished             the whole table has been compared
 * @param chunksDone           chunks compared so far
 * @param chunksTotalEstimate  chunks done plus the rest of the table's estimated rows in chunks of the current size
 * @param rowsCompared         source rows compared so far
 * @param mismatches           differing rows found so far: exact up to {@link DiffOptions#maxReported}; past it, a
 *                             lower bound (a differing range then counts as its row-count difference, at least 1)
 */
public record DiffCheckpoint(TableName table, List<Object> comparedBelow, boolean finished, long chunksDone,
        long chunksTotalEstimate, long rowsCompared, long mismatches) {
    public DiffCheckpoint {
        requireNonNull(table, "table is null");
        comparedBelow = Collections.unmodifiableList(new ArrayList<>(requireNonNull(comparedBelow, "comparedBelow is null")));
        if (chunksDone < 0 || chunksTotalEstimate < 0 || rowsCompared < 0 || mismatches < 0) {
            throw new IllegalArgumentException("progress counts must not be negative");
        }
    }

    /** Nothing compared yet. */
    public static DiffCheckpoint start(TableName table) {
        return new DiffCheckpoint(table, List.of(), false, 0, 0, 0, 0);
    }

    /** Whether every row is compared and nothing differed. */
    public boolean clean() {
        return finished && mismatches == 0;
    }
}
