package io.shardgate.proxy.jobs;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/** What a job does: split a shard's key range over new shards, or move tables to another shard and/or engine. */
public enum JobKind {
    RESHARD,
    MOVE;

    /** The name in the job document and the API: {@code reshard}, {@code move}. */
    @JsonValue
    public String json() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code reshard} or {@code move}; throws {@link IllegalArgumentException} naming the known kinds. */
    @JsonCreator
    public static JobKind parse(String text) {
        for (JobKind kind : values()) {
            if (kind.json().equals(text)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown job kind '" + text + "' (expected reshard or move)");
    }
}
