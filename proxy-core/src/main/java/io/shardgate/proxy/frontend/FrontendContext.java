package io.shardgate.proxy.frontend;

import io.netty.handler.ssl.SslContext;
import io.shardgate.proxy.auth.RsaKeyPair;
import io.shardgate.proxy.routing.BackendReport;
import io.shardgate.proxy.routing.ShardBackends;
import io.shardgate.proxy.config.ShardgateConfig;
import io.shardgate.proxy.config.UserConfig;
import io.shardgate.proxy.digest.QueryDigests;
import io.shardgate.proxy.error.ErrorTranslator;
import io.shardgate.proxy.metrics.ProxyMetrics;

import java.security.SecureRandom;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Everything a client connection's handlers share: config, users, the backends that serve
 * sessions, TLS, metrics, query digests. Built once by the proxy and passed to each connection.
 */
public record FrontendContext(ShardgateConfig config, Map<String, UserConfig> users, ShardBackends backends, BackendReport report,
                       Optional<SslContext> tls, RsaKeyPair rsa, ConnectionRegistry registry, ProxyMetrics metrics,
                       ErrorTranslator errors, SecureRandom random,
                       Optional<io.shardgate.proxy.sharding.ShardedDeployment> sharding, QueryDigests digests,
                       io.shardgate.proxy.topology.LiveTopology topology) {
    public FrontendContext {
        requireNonNull(config, "config is null");
        users = Map.copyOf(requireNonNull(users, "users is null"));
        requireNonNull(backends, "backends is null");
        requireNonNull(report, "report is null");
        requireNonNull(tls, "tls is null");
        requireNonNull(rsa, "rsa is null");
        requireNonNull(registry, "registry is null");
        requireNonNull(metrics, "metrics is null");
        requireNonNull(errors, "errors is null");
        requireNonNull(random, "random is null");
        requireNonNull(sharding, "sharding is null");
        requireNonNull(digests, "digests is null");
        requireNonNull(topology, "topology is null");
    }

    /** A context whose topology is the config's, never changed. */
    public FrontendContext(ShardgateConfig config, Map<String, UserConfig> users, ShardBackends backends, BackendReport report,
                           Optional<SslContext> tls, RsaKeyPair rsa, ConnectionRegistry registry, ProxyMetrics metrics,
                           ErrorTranslator errors, SecureRandom random,
                           Optional<io.shardgate.proxy.sharding.ShardedDeployment> sharding, QueryDigests digests) {
        this(config, users, backends, report, tls, rsa, registry, metrics, errors, random, sharding, digests,
                new io.shardgate.proxy.topology.LiveTopology(config.topology().version(), config.topology().document(), "file"));
    }

    /** A context whose query digests are off. */
    public FrontendContext(ShardgateConfig config, Map<String, UserConfig> users, ShardBackends backends, BackendReport report,
                           Optional<SslContext> tls, RsaKeyPair rsa, ConnectionRegistry registry, ProxyMetrics metrics,
                           ErrorTranslator errors, SecureRandom random,
                           Optional<io.shardgate.proxy.sharding.ShardedDeployment> sharding) {
        this(config, users, backends, report, tls, rsa, registry, metrics, errors, random, sharding, QueryDigests.off());
    }
}
