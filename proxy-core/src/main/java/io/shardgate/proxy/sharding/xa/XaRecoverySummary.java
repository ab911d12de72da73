package io.shardgate.proxy.sharding.xa;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * What one {@link XaRecovery#resolveAll()} pass did, per shard in control-plane order, and how many
 * settled decisions it deleted from the log.
 */
public record XaRecoverySummary(Map<String, Shard> shards, int decisionsDeleted) {

    public XaRecoverySummary {
        shards = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(requireNonNull(shards, "shards is null")));
    }

    /**
     * One shard's prepared Shardgate branches and what became of them.
     *
     * @param scanned         whether {@code XA RECOVER} could be read at all
     * @param committed       committed because the log holds COMMIT for their gtrid
     * @param rolledBack      rolled back (no COMMIT in the log: presumed abort, fenced with ABORT)
     * @param skippedInFlight left alone: their transaction is still running in this process
     * @param unavailable     the server no longer offered the branch (finished meanwhile, or still
     *                        attached to another live session: another proxy's transaction)
     * @param failed          could not be resolved this pass (decision log or shard error); the next pass retries
     */
    public record Shard(boolean scanned, int committed, int rolledBack, int skippedInFlight, int unavailable, int failed) {
    }

    public int committed() {
        return shards.values().stream().mapToInt(Shard::committed).sum();
    }

    public int rolledBack() {
        return shards.values().stream().mapToInt(Shard::rolledBack).sum();
    }

    public int failed() {
        return shards.values().stream().mapToInt(Shard::failed).sum();
    }

    /** For the log: {@code s0: 1 committed, 0 rolled back, ...; s1: ...; 2 decisions deleted}. */
    @Override
    public String toString() {
        return shards.entrySet().stream()
                .map(e -> e.getKey() + ": " + (e.getValue().scanned() ? "" : "XA RECOVER failed, ")
                        + e.getValue().committed() + " committed, " + e.getValue().rolledBack() + " rolled back, "
                        + e.getValue().skippedInFlight() + " in flight, " + e.getValue().unavailable() + " unavailable, "
                        + e.getValue().failed() + " failed")
                .collect(Collectors.joining("; ", "", "; " + decisionsDeleted + " decisions deleted"));
    }
}
