package io.shardgate.proxy.config;

import io.shardgate.proxy.topology.TopologyDocument;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Where the topology lives and how changes apply (the {@code topology} section), and the topology the
 * config file itself holds.
 *
 * @param store        {@code file}: the config file is the store (one proxy); {@code etcd}: an etcd cluster
 * @param etcd         the etcd cluster's client URLs, key prefix and timeouts (store {@code etcd})
 * @param localCopy    where the proxy keeps the last version it applied, to start from while etcd is away
 * @param drainTimeout how long a draining backend's statements and pinned sessions may take to finish
 * @param proxyId      this proxy's name in the registrations (default: its address)
 * @param document     the topology sections of the config file
 * @param version      the file's {@code topology_version} (1 when absent)
 * @param file         the config file, when the config was loaded from one: admin writes go back to it
 */
public record TopologyConfig(Store store, Etcd etcd, Optional<Path> localCopy, Duration drainTimeout,
                             Optional<String> proxyId, TopologyDocument document, long version, Optional<Path> file) {
    public enum Store { FILE, ETCD }

    /** The etcd cluster: client URLs, the key prefix of this deployment, and timeouts. */
    public record Etcd(List<String> endpoints, String prefix, Duration dialTimeout, Duration leaseTtl) {
        public static final Etcd NONE = new Etcd(List.of(), "/shardgate/default", Duration.ofSeconds(2), Duration.ofSeconds(5));

        public Etcd {
            endpoints = List.copyOf(requireNonNull(endpoints, "endpoints is null"));
            requireNonNull(prefix, "prefix is null");
            requireNonNull(dialTimeout, "dialTimeout is null");
            requireNonNull(leaseTtl, "leaseTtl is null");
        }
    }

    public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(30);

    public TopologyConfig {
        requireNonNull(store, "store is null");
        requireNonNull(etcd, "etcd is null");
        requireNonNull(localCopy, "localCopy is null");
        requireNonNull(drainTimeout, "drainTimeout is null");
        requireNonNull(proxyId, "proxyId is null");
        requireNonNull(document, "document is null");
        requireNonNull(file, "file is null");
    }

    /** The same, loaded from {@code source}. */
    public TopologyConfig from(Path source) {
        return new TopologyConfig(store, etcd, localCopy, drainTimeout, proxyId, document, version, Optional.of(source));
    }
}
