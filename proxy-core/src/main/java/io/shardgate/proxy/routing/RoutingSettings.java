package io.shardgate.proxy.routing;

import io.shardgate.proxy.config.RoutingConfig;

import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * The routing settings in force: the topology's, replaced whole when a new version applies. A read
 * takes them once, when it is routed.
 */
public final class RoutingSettings implements Supplier<RoutingConfig> {
    private volatile RoutingConfig current;

    public RoutingSettings(RoutingConfig initial) {
        this.current = requireNonNull(initial, "initial is null");
    }

    @Override
    public RoutingConfig get() {
        return current;
    }

    public void set(RoutingConfig next) {
        current = requireNonNull(next, "next is null");
    }
}
