package io.shardgate.proxy.jobs;

import io.shardgate.proxy.config.ConfigException;
import io.shardgate.proxy.config.TopologyConfig;
import io.shardgate.proxy.topology.EtcdStoreSettings;

import java.nio.file.Path;
import java.util.Optional;

/** Opens the job store that goes with the topology store the {@code topology} section names. */
public final class JobStores {
    /** The jobs file of a proxy on the file store: next to its config file, named after it ({@code shardgate.yaml}: {@code shardgate.jobs.json}). */
    public static Path fileFor(Path config) {
        String name = config.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return config.toAbsolutePath().resolveSibling((dot > 0 ? name.substring(0, dot) : name) + ".jobs.json");
    }

    private JobStores() {
    }

    public static JobStore open(TopologyConfig config) {
        return switch (config.store()) {
            case FILE -> {
                Optional<Path> file = config.file().map(JobStores::fileFor);
                try {
                    yield new FileJobStore(file);
                } catch (IllegalArgumentException e) {
                    throw new ConfigException("jobs: " + e.getMessage());
                }
            }
            case ETCD -> {
                try {
                    yield new EtcdJobStore(new EtcdStoreSettings(config.etcd().endpoints(), config.etcd().prefix(),
                            config.etcd().dialTimeout(), config.etcd().leaseTtl()));
                } catch (IllegalArgumentException e) {
                    throw new ConfigException("topology.etcd: " + e.getMessage());
                }
            }
        };
    }
}
