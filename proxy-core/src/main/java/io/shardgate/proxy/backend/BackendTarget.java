package io.shardgate.proxy.backend;

import io.shardgate.proxy.config.HostPort;

import static java.util.Objects.requireNonNull;

/** One backend server as errors and metrics name it: shard, role and address. */
public record BackendTarget(String shard, String role, HostPort address) {
    public BackendTarget {
        requireNonNull(shard, "shard is null");
        requireNonNull(role, "role is null");
        requireNonNull(address, "address is null");
    }

    @Override
    public String toString() {
        return shard + " " + role + " (" + address + ")";
    }
}
