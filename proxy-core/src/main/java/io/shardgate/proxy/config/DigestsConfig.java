package io.shardgate.proxy.config;

/**
 * Query digest statistics ({@code digests:} in the config file).
 *
 * @param enabled    whether statements are counted per digest at all
 * @param maxEntries digests kept; statements of further digests count in one {@code (overflow)} entry
 * @param metricsTop how many digests, those with the most total time, /metrics shows
 */
public record DigestsConfig(boolean enabled, int maxEntries, int metricsTop) {
    public static final DigestsConfig DEFAULTS = new DigestsConfig(true, 10_000, 20);

    public DigestsConfig {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries: " + maxEntries + " (expected: >= 1)");
        }
        if (metricsTop < 0) {
            throw new IllegalArgumentException("metricsTop: " + metricsTop + " (expected: >= 0)");
        }
    }
}
