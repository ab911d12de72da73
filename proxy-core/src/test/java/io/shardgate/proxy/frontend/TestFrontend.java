package io.shardgate.proxy.frontend;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardgate.proxy.auth.RsaKeyPair;
import io.shardgate.proxy.backend.BackendConnector;
import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.proxy.backend.BackendTarget;
import io.shardgate.proxy.config.ConfigLoader;
import io.shardgate.proxy.config.ShardgateConfig;
import io.shardgate.proxy.config.UserConfig;
import io.shardgate.proxy.error.ErrorTranslator;
import io.shardgate.proxy.metrics.ProxyMetrics;
import io.shardgate.proxy.routing.BackendReport;
import io.shardgate.proxy.routing.ShardBackends;
import io.shardgate.proxy.transport.Transport;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The front end's context for socket-free tests: one shard whose primary is a closed port (a
 * command that reaches for a backend shows up in {@link #pool()} or fails), a connection registry
 * and the given users.
 */
record TestFrontend(FrontendContext context, BackendPool pool, ConnectionRegistry registry) {
    /** With the config's one user, app/app. */
    static TestFrontend create(RsaKeyPair rsa, int maxConnections) {
        return create(rsa, maxConnections, null);
    }

    /** @param users the users by name (null: the config's, app/app) */
    static TestFrontend create(RsaKeyPair rsa, int maxConnections, Map<String, UserConfig> users) {
        ShardgateConfig config = new ConfigLoader().parse("""
                listen: { host: 127.0.0.1, port: 0 }
                admin: { host: 127.0.0.1, port: 0, token: test-admin-token }
                backend_user: { name: b, password: b }
                shards:
                  - { name: s0, engine: innodb, primary: "127.0.0.1:1" }
                users:
                  - { name: app, password: app }
                """);
        BackendPool pool = new BackendPool(new BackendTarget("s0", "primary", config.shards().get(0).primary()),
                new BackendConnector(Transport.best(), "b", "b", Duration.ofMillis(200), false, 8), 2, Duration.ofMillis(200));
        ShardBackends backends = new ShardBackends("s0", pool, List.of(), null, null);
        ConnectionRegistry registry = new ConnectionRegistry(maxConnections);
        Map<String, UserConfig> known = users;
        if (known == null) {
            known = new LinkedHashMap<>();
            for (UserConfig user : config.users()) {
                known.put(user.name(), user);
            }
        }
        FrontendContext context = new FrontendContext(config, known, backends, new BackendReport(List.of(backends)),
                Optional.empty(), rsa, registry, new ProxyMetrics(new SimpleMeterRegistry(), registry::connections),
                new ErrorTranslator(), new SecureRandom(), Optional.empty());
        return new TestFrontend(context, pool, registry);
    }
}
