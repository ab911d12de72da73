package io.shardgate.proxy.topology;

import static java.util.Objects.requireNonNull;

/** What a compare-and-set on the topology document did. */
public sealed interface TopologyWrite {
    /** The document was written; it is now {@code version}. */
    record Written(long version) implements TopologyWrite {
    }

    /** Another write came first: {@code current} is what the store holds now (version 0, empty text: nothing). */
    record Conflict(StoredTopology current) implements TopologyWrite {
        public Conflict {
            requireNonNull(current, "current is null");
        }
    }
}
