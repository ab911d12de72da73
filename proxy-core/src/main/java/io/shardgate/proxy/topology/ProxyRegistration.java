package io.shardgate.proxy.topology;

import java.time.Instant;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One proxy of the deployment, as it registers itself: a stable id, the address clients and the admin
 * API reach it at, the topology version it serves, when it started, and the cutovers whose write holds it has
 * drained.
 */
public record ProxyRegistration(String id, String address, String adminAddress, long version, Instant started,
                                List<String> holdsDrained) {
    public ProxyRegistration {
        requireNonNull(id, "id is null");
        requireNonNull(address, "address is null");
        requireNonNull(adminAddress, "adminAddress is null");
        requireNonNull(started, "started is null");
        holdsDrained = List.copyOf(requireNonNull(holdsDrained, "holdsDrained is null"));
    }

    public ProxyRegistration(String id, String address, String adminAddress, long version, Instant started) {
        this(id, address, adminAddress, version, started, List.of());
    }

    public ProxyRegistration withVersion(long newVersion) {
        return new ProxyRegistration(id, address, adminAddress, newVersion, started, holdsDrained);
    }

    /** The jobs whose write holds this proxy has drained: none of its writes is under way on their shards. */
    public ProxyRegistration withHoldsDrained(List<String> jobs) {
        return new ProxyRegistration(id, address, adminAddress, version, started, jobs);
    }
}
