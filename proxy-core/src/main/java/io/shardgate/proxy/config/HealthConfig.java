package io.shardgate.proxy.config;

/**
 * {@code health:} how backend health is judged (docs/engines.md).
 *
 * @param historyListThreshold an InnoDB backend whose history list grows beyond this is DEGRADED
 */
public record HealthConfig(long historyListThreshold) {
    public static final HealthConfig DEFAULTS = new HealthConfig(100_000);
}
