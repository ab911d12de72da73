package io.shardgate.proxy.topology;

import io.shardgate.proxy.config.ConfigException;
import io.shardgate.proxy.config.TopologyConfig;

import java.nio.file.Path;
import java.util.Optional;

/** Opens the store the {@code topology} section names, and the local copy that goes with it. */
public final class TopologyStores {
    private TopologyStores() {
    }

    public static TopologyStore open(TopologyConfig config) {
        return switch (config.store()) {
            case FILE -> new FileTopologyStore(config.file(), new StoredTopology(config.version(), config.document().json()));
            case ETCD -> {
                try {
                    yield new EtcdTopologyStore(new EtcdStoreSettings(config.etcd().endpoints(), config.etcd().prefix(),
                            config.etcd().dialTimeout(), config.etcd().leaseTtl()));
                } catch (IllegalArgumentException e) {
                    throw new ConfigException("topology.etcd: " + e.getMessage());
                }
            }
        };
    }

    /**
     * Where a proxy on {@code etcd} keeps its last applied version: {@code local_copy}, else next to the config file
     * ({@code shardgate-topology-<proxy>.json}); none for the file store, which is its own copy.
     */
    public static Optional<LocalCopy> localCopy(TopologyConfig config, String proxyId) {
        if (config.store() == TopologyConfig.Store.FILE) {
            return Optional.empty();
        }
        if (config.localCopy().isPresent()) {
            return Optional.of(new LocalCopy(config.localCopy().get()));
        }
        String name = "shardgate-topology-" + proxyId.replaceAll("[^A-Za-z0-9._-]", "_") + ".json";
        return config.file().map(file -> new LocalCopy(file.toAbsolutePath().resolveSibling(name)))
                .or(() -> Optional.of(new LocalCopy(Path.of(System.getProperty("java.io.tmpdir"), name))));
    }
}
