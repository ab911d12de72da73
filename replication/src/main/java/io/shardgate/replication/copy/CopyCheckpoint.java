package io.shardgate.replication.copy;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.gtid.SnapshotPoint;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Where one table's copy stands, handed to the caller's sink after every chunk; a copy started
 * from it re-copies at most the one chunk that may have been written after it.
 *
 * @param table      {@code schema.table}
 * @param lastPk     the last copied primary key, one value per key column; empty before the first chunk
 * @param position   the source GTID position at which every copied row (of this and the finished
 *                   tables) is current, as MariaDB writes it ({@code 0-1-42,1-2-7}); empty before the first chunk
 * @param rowsCopied rows copied so far
 * @param rowsTotal  the source's estimate of the table's rows (engine statistics)
 * @param done       every row is copied; from here on the change stream keeps the table current
 * @param lookback   where a stream going on from {@code position} reads from ({@link SnapshotPoint#lookback()}); empty
 *                   when it is {@code position} (and in checkpoints written before it was kept)
 */
public record CopyCheckpoint(String table, List<PkValue> lastPk, String position, long rowsCopied, long rowsTotal,
                             boolean done, String lookback) {
    private static final ObjectMapper JSON = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    @JsonCreator
    public CopyCheckpoint {
        requireNonNull(table, "table is null");
        lastPk = List.copyOf(requireNonNull(lastPk, "lastPk is null"));
        requireNonNull(position, "position is null");
        MariaDbGtidPosition.parse(position);
        lookback = lookback == null ? "" : lookback;
        MariaDbGtidPosition.parse(lookback);
    }

    /** A checkpoint at a position with no lookback of its own. */
    public CopyCheckpoint(String table, List<PkValue> lastPk, String position, long rowsCopied, long rowsTotal,
                          boolean done) {
        this(table, lastPk, position, rowsCopied, rowsTotal, done, "");
    }

    /** A checkpoint at the snapshot {@code point}. */
    public CopyCheckpoint(String table, List<PkValue> lastPk, SnapshotPoint point, long rowsCopied, long rowsTotal,
                          boolean done) {
        this(table, lastPk, point.position().toString(), rowsCopied, rowsTotal, done,
                point.lookback().equals(point.position()) ? "" : point.lookback().toString());
    }

    /** A table nothing of which is copied yet. */
    public static CopyCheckpoint start(String table, long rowsTotal) {
        return new CopyCheckpoint(table, List.of(), "", 0, rowsTotal, false);
    }

    public MariaDbGtidPosition gtid() {
        return MariaDbGtidPosition.parse(position);
    }

    /** The position, with where a stream going on from it reads from. */
    public SnapshotPoint point() {
        return SnapshotPoint.of(gtid(), MariaDbGtidPosition.parse(lookback));
    }

    public boolean started() {
        return !lastPk.isEmpty() || done;
    }

    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a checkpoint is always serialisable", e);
        }
    }

    public static CopyCheckpoint fromJson(String json) {
        requireNonNull(json, "json is null");
        try {
            return JSON.readValue(json, CopyCheckpoint.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a copy checkpoint: " + e.getOriginalMessage(), e);
        }
    }
}
