package io.shardgate.storage.ddl;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * One DDL statement checked against every shard it goes to: either a statement per shard (each
 * possibly rewritten for its engine), or the refusals, in which case no shard gets anything.
 *
 * @param statements shard name to the statement to send; empty when refused
 * @param refusals   every shard's refusal; empty when accepted
 */
public record DdlFanOut(Map<String, String> statements, List<DdlVerdict.Refused> refusals) {
    public DdlFanOut {
        statements = Collections.unmodifiableMap(new LinkedHashMap<>(requireNonNull(statements, "statements is null")));
        refusals = List.copyOf(requireNonNull(refusals, "refusals is null"));
        if (statements.isEmpty() == refusals.isEmpty()) {
            throw new IllegalArgumentException("either statements or refusals, not both or neither");
        }
    }

    static DdlFanOut accepted(Map<String, String> statements) {
        return new DdlFanOut(statements, List.of());
    }

    static DdlFanOut refused(List<DdlVerdict.Refused> refusals) {
        return new DdlFanOut(Map.of(), refusals);
    }

    public boolean isRefused() {
        return !refusals.isEmpty();
    }

    /** The refusal to answer the client with: the first shard's, in the order the shards were given. */
    public DdlVerdict.Refused firstRefusal() {
        if (refusals.isEmpty()) {
            throw new IllegalStateException("accepted on every shard");
        }
        return refusals.get(0);
    }
}
