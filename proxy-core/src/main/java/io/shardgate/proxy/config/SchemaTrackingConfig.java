package io.shardgate.proxy.config;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * {@code schema_tracking:} how a sharded deployment keeps the tables' columns current (docs/sharding.md).
 *
 * @param checkInterval how often every shard's columns are read again, besides after DDL through the proxy;
 *                      zero: never
 */
public record SchemaTrackingConfig(Duration checkInterval) {
    public static final SchemaTrackingConfig DEFAULTS = new SchemaTrackingConfig(Duration.ofSeconds(60));

    public SchemaTrackingConfig {
        requireNonNull(checkInterval, "checkInterval is null");
        if (checkInterval.isNegative()) {
            throw new IllegalArgumentException("checkInterval: " + checkInterval + " (expected: >= 0)");
        }
    }
}
