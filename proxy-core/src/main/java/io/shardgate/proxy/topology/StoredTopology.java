package io.shardgate.proxy.topology;

import static java.util.Objects.requireNonNull;

/** A topology document as a store holds it: its version and its JSON text. */
public record StoredTopology(long version, String json) {
    public StoredTopology {
        if (version < 0) {
            throw new IllegalArgumentException("version is negative: " + version);
        }
        requireNonNull(json, "json is null");
    }
}
