package io.shardgate.proxy.topology;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * One change of the topology, as the document's history keeps it: the version it changed, when, who
 * made it, and what it did.
 */
public record TopologyChange(long fromVersion, Instant at, String by, String what) {
    public TopologyChange {
        requireNonNull(at, "at is null");
        requireNonNull(by, "by is null");
        requireNonNull(what, "what is null");
    }
}
