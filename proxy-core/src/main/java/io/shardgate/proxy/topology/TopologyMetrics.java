package io.shardgate.proxy.topology;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The topology's gauges: the version this proxy serves, whether its store is reachable, the last
 * version it refused; and the line {@code /health} adds while the store is away.
 */
public final class TopologyMetrics {
    private TopologyMetrics() {
    }

    public static void register(MeterRegistry registry, LiveTopology live) {
        Gauge.builder("shardgate_topology_version", live, LiveTopology::version)
                .description("The topology version this proxy serves").register(registry);
        Gauge.builder("shardgate_topology_degraded", live, topology -> topology.storeAvailable() ? 0 : 1)
                .description("1 while the topology store cannot be reached (the proxy serves its last version)").register(registry);
        Gauge.builder("shardgate_topology_refused_version", live, topology -> topology.refused() == null ? 0 : topology.refused().version())
                .description("The last topology version this proxy could not apply (0: none since the last it applied)")
                .register(registry);
    }

    /** {@code /health}'s second line: empty when all is well. */
    public static String healthDetail(LiveTopology live) {
        if (!live.storeAvailable()) {
            return "DEGRADED: the topology store (" + live.store() + ") cannot be reached; serving topology version " + live.version();
        }
        LiveTopology.Refused refused = live.refused();
        return refused == null ? "" : "topology version " + refused.version() + " refused: " + refused.reason();
    }
}
