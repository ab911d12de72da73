package io.shardgate.proxy;

import io.shardgate.proxy.config.ConfigException;
import io.shardgate.proxy.config.ShardgateConfig;
import io.shardgate.storage.StorageAdapters;

import java.net.BindException;

/** Starts a proxy from the command line, turning startup failures into one-line messages. */
public final class ProxyLauncher {
    private ProxyLauncher() {
    }

    /** Starts a proxy for {@code config}, which was loaded with {@code adapters}: the one registry of engines it runs with. */
    public static ShardgateProxy start(ShardgateConfig config, StorageAdapters adapters) {
        try {
            return ShardgateProxy.start(config, adapters);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConfigException("interrupted while starting");
        } catch (Exception e) {
            // Netty rethrows the bind failure, a checked BindException, without declaring it.
            if (e instanceof BindException || e.getCause() instanceof BindException
                    || String.valueOf(e.getMessage()).contains("Address already in use")) {
                throw new ConfigException("listen: cannot bind " + config.listen() + " or admin " + config.admin().listen()
                        + ": address already in use");
            }
            if (e instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e);
        }
    }
}
