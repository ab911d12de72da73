package io.shardgate.proxy.topology;

import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * One proxy of the deployment, as it registers itself: a stable id, the address clients and the admin
 * API reach it at, the topology version it serves, and when it started.
 */
public record ProxyRegistration(String id, String address, String adminAddress, long version, Instant started) {
    public ProxyRegistration {
        requireNonNull(id, "id is null");
        requireNonNull(address, "address is null");
        requireNonNull(adminAddress, "adminAddress is null");
        requireNonNull(started, "started is null");
    }

    public ProxyRegistration withVersion(long newVersion) {
        return new ProxyRegistration(id, address, adminAddress, newVersion, started);
    }
}
