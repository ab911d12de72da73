package io.shardgate.replication.diff;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.StringJoiner;

import static java.util.Objects.requireNonNull;

/**
 * One row that differs between the source and the union of targets.
 *
 * @param kind  how it differs
 * @param key   its primary key, as the driver read it on the server that has it (the source where both do)
 * @param shard the target it was found on; empty for {@link Kind#MISSING_ON_TARGET}
 */
public record Mismatch(Kind kind, List<Object> key, String shard) {

    /** How a row differs. */
    public enum Kind {
        /** On the source, on no target. */
        MISSING_ON_TARGET,
        /** On a target, not on the source; or a second copy of a source row on another target. */
        EXTRA_ON_TARGET,
        /** On both, with different contents (including a key equal only under its collation: 'a' against 'A'). */
        DIFFERENT,
        /** On a target whose key range does not hold its shard key (the ownership check). */
        NOT_OWNED
    }

    public Mismatch {
        requireNonNull(kind, "kind is null");
        key = Collections.unmodifiableList(new ArrayList<>(requireNonNull(key, "key is null")));
        requireNonNull(shard, "shard is null");
    }

    @Override
    public String toString() {
        StringJoiner text = new StringJoiner(", ", "(", ")");
        for (Object value : key) {
            text.add(value instanceof byte[] bytes ? "0x" + HexFormat.of().formatHex(bytes) : String.valueOf(value));
        }
        return kind + " " + text + (shard.isEmpty() ? "" : " on " + shard);
    }
}
