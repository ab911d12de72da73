package io.shardgate.router.classify;

import static java.util.Objects.requireNonNull;

/**
 * @param target where the statement goes
 * @param reason why, in a few words, for logs and EXPLAIN
 */
public record RoutingDecision(Target target, String reason) {

    public RoutingDecision {
        requireNonNull(target, "target is null");
        requireNonNull(reason, "reason is null");
    }
}
