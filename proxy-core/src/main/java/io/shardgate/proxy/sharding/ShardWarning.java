package io.shardgate.proxy.sharding;

import static java.util.Objects.requireNonNull;

/** One row of SHOW WARNINGS that a shard gave for a sharded statement. */
public record ShardWarning(String shard, String level, int code, String message) {
    public ShardWarning {
        requireNonNull(shard, "shard is null");
        requireNonNull(level, "level is null");
        requireNonNull(message, "message is null");
    }

    /** The message as the client sees it: prefixed with the shard, as Shardgate's own errors name theirs. */
    public String clientMessage() {
        return "shard " + shard + ": " + message;
    }
}
