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
public record AppliedPositions(Map<String, MariaDbGtidPosition> bySchema, MariaDbGtidPosition watermark) {
    public AppliedPositions {
        bySchema = Map.copyOf(requireNonNull(bySchema, "bySchema is null"));
        requireNonNull(watermark, "watermark is null");
    }

    public static AppliedPositions none() {
        return new AppliedPositions(Map.of(), MariaDbGtidPosition.empty());
    }

    /** True when {@code gtid} (or a later transaction of its domain) is already applied for {@code schema}. */
    public boolean isApplied(String schema, MariaDbGtid gtid) {
        MariaDbGtidPosition position = bySchema.get(schema);
        if (position == null) {
            return false;
        }
        MariaDbGtid have = position.byDomain().get(gtid.domain());
        return have != null && have.sequence() >= gtid.sequence();
    }

    /** True when nothing was ever applied to this target. */
    public boolean isFresh() {
        return bySchema.isEmpty() && watermark.isEmpty();
    }
}
