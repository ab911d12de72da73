package io.shardgate.replication.stream.apply;

import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * What a target has applied, as stored in {@code _shardgate.apply_position}.
 *
 * @param bySchema  per schema, the last applied GTID per domain; written in the same target
 *                  transaction as the schema's rows
 * @param watermark every source transaction up to here is applied or was not for this target:
 *                  where a restarted stream starts reading
 */
public record AppliedPositions(Map<String, MariaDbGtidPosition> bySchema, MariaDbGtidPosition watermark,
                               MariaDbGtidPosition floor) {
    public AppliedPositions {
        bySchema = Map.copyOf(requireNonNull(bySchema, "bySchema is null"));
        requireNonNull(watermark, "watermark is null");
        requireNonNull(floor, "floor is null");
    }

    /**
     * @param floor every source transaction up to here is in the target for every schema: it was loaded from a
     *              consistent snapshot at that position ({@link io.shardgate.replication.gtid.SnapshotPoint}); empty if none
     */
    public AppliedPositions(Map<String, MariaDbGtidPosition> bySchema, MariaDbGtidPosition watermark) {
        this(bySchema, watermark, MariaDbGtidPosition.empty());
    }

    public static AppliedPositions none() {
        return new AppliedPositions(Map.of(), MariaDbGtidPosition.empty());
    }

    /** These positions with the floor raised to {@code snapshot} in each domain (never lowered). */
    public AppliedPositions withFloor(MariaDbGtidPosition snapshot) {
        MariaDbGtidPosition raised = floor;
        for (MariaDbGtid gtid : snapshot.byDomain().values()) {
            if (!covers(raised, gtid)) {
                raised = raised.with(gtid);
            }
        }
        return new AppliedPositions(bySchema, watermark, raised);
    }

    /** True when {@code gtid} (or a later transaction of its domain) is already applied for {@code schema}. */
    public boolean isApplied(String schema, MariaDbGtid gtid) {
        return covers(floor, gtid) || covers(bySchema.get(schema), gtid);
    }

    private static boolean covers(MariaDbGtidPosition position, MariaDbGtid gtid) {
        if (position == null) {
            return false;
        }
        MariaDbGtid have = position.byDomain().get(gtid.domain());
        return have != null && have.sequence() >= gtid.sequence();
    }

    /** True when nothing was ever applied to this target. */
    public boolean isFresh() {
        return bySchema.isEmpty() && watermark.isEmpty() && floor.isEmpty();
    }
}
