package io.shardgate.proxy;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;
import io.shardgate.proxy.admin.AdminServer;
import io.shardgate.proxy.auth.RsaKeyPair;
import io.shardgate.proxy.auth.SelfSignedCertificate;
import io.shardgate.proxy.auth.TlsMaterial;
import io.shardgate.proxy.config.ConfigException;
import io.shardgate.proxy.backend.BackendConnector;
import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.proxy.config.ShardConfig;
import io.shardgate.proxy.config.ConfigLoader;
import io.shardgate.proxy.admin.TopologyApi;
import io.shardgate.proxy.admin.AdminRoutes;
import io.shardgate.proxy.jobs.JobExecutors;
import io.shardgate.proxy.jobs.JobKind;
import io.shardgate.proxy.reshard.ReshardExecutor;
import io.shardgate.replication.copy.CopySettings;
import io.shardgate.proxy.jobs.JobService;
import io.shardgate.proxy.routing.BackendFactory;
import io.shardgate.proxy.routing.Drains;
import io.shardgate.proxy.topology.LiveTopology;
import io.shardgate.proxy.topology.ProxyRegistration;
import io.shardgate.proxy.topology.ShardUse;
import io.shardgate.proxy.topology.TopologyAdmin;
import io.shardgate.proxy.topology.TopologyApplier;
import io.shardgate.proxy.topology.TopologyDocument;
import io.shardgate.proxy.topology.TopologyMetrics;
import io.shardgate.proxy.topology.TopologyService;
import io.shardgate.proxy.topology.TopologyStore;
import io.shardgate.proxy.topology.TopologyStores;
import io.shardgate.proxy.digest.DigestMetrics;
import io.shardgate.proxy.digest.DigestReport;
import io.shardgate.proxy.digest.QueryDigests;
import io.shardgate.proxy.config.ShardgateConfig;
import io.shardgate.proxy.config.UserConfig;
import io.shardgate.proxy.error.ErrorTranslator;
import io.shardgate.proxy.frontend.ConnectionRegistry;
import io.shardgate.proxy.frontend.FrontendContext;
import io.shardgate.proxy.frontend.FrontendServer;
import io.shardgate.proxy.metrics.ProxyMetrics;
import io.shardgate.proxy.transport.Transport;

import java.io.IOException;
import java.security.SecureRandom;
import java.time.Instant;
import io.shardgate.proxy.routing.BackendReport;
import io.shardgate.proxy.routing.EngineHealth;
import io.shardgate.proxy.routing.ReplicaBackend;
import io.shardgate.proxy.routing.ShardBackends;
import io.shardgate.replication.lag.ReplicaLagMonitor;
import io.shardgate.storage.StorageAdapters;
import io.shardgate.storage.health.BackendLoops;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import io.shardgate.proxy.sharding.SchemaReport;
import io.shardgate.proxy.sharding.CutoverHolds;
import io.shardgate.proxy.sharding.ShardingRuntime;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static java.util.Objects.requireNonNull;

/** A running proxy: the client listener, the admin API and the backend pools, built from a config. */
public final class ShardgateProxy implements AutoCloseable {
    private final Transport transport;
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final List<ShardBackends> backends;
    private final Optional<ShardingRuntime> sharding;
    private BackendReport report;
    private final FrontendServer frontend;
    private final AdminServer admin;
    private final BackendLoops monitoring;
    private final AtomicBoolean serving = new AtomicBoolean();
    private final Closer topology;
    /** How long an admin change waits for this proxy to serve it before answering. */
    private static final Duration APPLY_WAIT = Duration.ofSeconds(5);

    /** What follows the topology store: stopped before the backends close. */
    private record Closer(TopologyService service, Drains drains, java.util.concurrent.ExecutorService adminWork, JobService jobs) {
        void close() {
            jobs.close();
            service.close();
            drains.close();
            adminWork.shutdownNow();
        }
    }

    private ShardgateProxy(Transport transport, EventLoopGroup boss, EventLoopGroup workers, List<ShardBackends> backends,
                           Optional<ShardingRuntime> sharding, FrontendServer frontend, AdminServer admin,
                           BackendLoops monitoring, Closer topology) {
        this.topology = topology;
        this.transport = transport;
        this.boss = boss;
        this.workers = workers;
        this.backends = backends;
        this.sharding = sharding;
        this.frontend = frontend;
        this.admin = admin;
        this.monitoring = monitoring;
    }

    public static ShardgateProxy start(ShardgateConfig config) throws InterruptedException {
        return start(config, StorageAdapters.load(ShardgateProxy.class.getClassLoader()));
    }

    /** A proxy whose engines come from {@code adapters}, the registry the config was loaded with. */
    public static ShardgateProxy start(ShardgateConfig fileConfig, StorageAdapters adapters) throws InterruptedException {
        requireNonNull(fileConfig, "config is null");
        requireNonNull(adapters, "adapters is null");
        String proxyId = fileConfig.topology().proxyId().orElse(fileConfig.listen().toString());
        TopologyStore store = TopologyStores.open(fileConfig.topology());
        TopologyService topology = TopologyService.open(store, fileConfig.topology(), TopologyStores.localCopy(fileConfig.topology(), proxyId));
        ConfigLoader loader = new ConfigLoader(adapters);
        TopologyDocument document;
        ShardgateConfig config;
        try {
            document = loader.topology(topology.initial().json());
            config = fileConfig.withTopology(document);
        } catch (ConfigException e) {
            topology.close();
            throw new ConfigException("the topology " + store.describe() + " holds (version " + topology.initial().version()
                    + ") is invalid: " + e.getMessage());
        }
        Transport transport = Transport.best();
        EventLoopGroup boss = transport.newGroup(1, "shardgate-accept");
        EventLoopGroup workers = transport.newGroup(Runtime.getRuntime().availableProcessors(), "shardgate-io");
        // One monitoring loop per backend server: its engine health probe and its lag poll share a thread and a connection.
        BackendLoops monitoring = new BackendLoops(config.backendUser().name(), config.backendUser().password());
        Drains drains = new Drains();
        java.util.concurrent.ExecutorService adminWork = java.util.concurrent.Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "shardgate-admin");
            thread.setDaemon(true);
            return thread;
        });
        JobService jobs = null;
        try {
            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            ConnectionRegistry connections = new ConnectionRegistry(config.limits().maxClientConnections());
            ProxyMetrics metrics = new ProxyMetrics(registry, connections::connections);
            BackendConnector connector = new BackendConnector(transport, config.backendUser().name(),
                    config.backendUser().password(), config.limits().backendConnectTimeout(), config.allowLocalInfile(),
                    config.limits().backendStatementCache());
            BackendFactory factory = new BackendFactory(config, connector, metrics);
            // Without a sharding schema every table lives on the first shard, as before.
            List<ShardConfig> served = config.sharding().isPresent() ? config.shards() : List.of(config.shards().get(0));
            EngineHealth health = EngineHealth.start(config, served, adapters, monitoring);
            health.registerMetrics(registry);
            // A shard added live joins it, so the proxy closes its backends too.
            List<ShardBackends> all = new java.util.concurrent.CopyOnWriteArrayList<>();
            for (ShardConfig shard : served) {
                ShardBackends shardBackends = backends(config, shard, factory, health, monitoring);
                all.add(shardBackends);
                shardBackends.replicas().forEach(replica -> factory.registerReplica(shardBackends, replica));
            }
            monitoring.start();
            LiveTopology live = new LiveTopology(topology.initial().version(), document, store.describe());
            TopologyApplier applier = new TopologyApplier(live, all, factory, drains, config.topology().drainTimeout(), loader,
                    topology::served);
            applier.applyStates();
            TopologyMetrics.register(registry, live);
            ShardBackends backends = all.get(0);
            BackendReport report = new BackendReport(all);
            Optional<ShardingRuntime> sharding = config.sharding().map(schema -> ShardingRuntime.start(config, schema, all, live.routing()));
            sharding.ifPresent(runtime -> {
                applier.onNewShard(shard -> {
                    ShardBackends added = addedShard(config, shard, factory, health, report);
                    all.add(added);
                    runtime.shardAdded(shard, added);
                    return added;
                });
                applier.onShardRemoved(removed -> {
                    runtime.shardRemoved(removed.shard());
                    all.remove(removed);
                    report.remove(removed);
                });
                applier.onPrimaryChange(runtime::primaryChanged);
                applier.onCutover(new CutoverHolds(runtime.deployment(), topology::holdsDrained, System::currentTimeMillis));
            });
            Map<String, UserConfig> users = new LinkedHashMap<>();
            config.users().forEach(user -> users.put(user.name(), user));
            SecureRandom random = new SecureRandom();
            QueryDigests digests = new QueryDigests(config.digests());
            DigestMetrics digestMetrics = new DigestMetrics(digests, registry);
            DigestReport digestReport = new DigestReport(digests);
            FrontendContext context = new FrontendContext(config, users, backends, report, Optional.of(tls(config, random)),
                    RsaKeyPair.generate(random), connections, metrics, new ErrorTranslator(), random, sharding.map(ShardingRuntime::deployment),
                    digests, live);
            FrontendServer frontend = FrontendServer.start(transport, boss, workers, config.listen(), context);
            TopologyAdmin topologyAdmin = new TopologyAdmin(store, live, applier, APPLY_WAIT);
            ReshardExecutor dataMoves = new ReshardExecutor(topologyAdmin, live, config.backendUser(), adapters, CopySettings.forJobs());
            JobExecutors executors = JobExecutors.none().with(JobKind.RESHARD, dataMoves).with(JobKind.MOVE, dataMoves);
            jobs = JobService.start(config.topology(), config.topology().proxyId().orElse(config.listen().host() + ":"
                    + frontend.port()), executors, registry, () -> live.applied().document(),
                    engine -> adapters.engines().stream().anyMatch(known -> known.configName().equals(engine)));
            JobService jobService = jobs;
            ShardgateProxy[] holder = new ShardgateProxy[1];
            AdminServer admin = AdminServer.start(transport, boss, config.admin().listen(), config.admin().token(),
                    registry, () -> holder[0] != null && holder[0].serving.get(), () -> TopologyMetrics.healthDetail(live),
                    jsonEndpoints(report, health, sharding),
                    Map.of("/api/v1/queries", digestReport::json), () -> {
                        digestMetrics.refresh();
                        jobService.refreshMetrics();
                    }, AdminRoutes.all(new TopologyApi(topologyAdmin,
                            decisionLog(config).or(jobService.shardUse())), jobService.routes()),
                    adminWork);
            String address = config.listen().host() + ":" + frontend.port();
            topology.start(live, applier, new ProxyRegistration(config.topology().proxyId().orElse(address), address,
                    config.admin().listen().host() + ":" + admin.port(), live.version(), Instant.now()));
            ShardgateProxy proxy = new ShardgateProxy(transport, boss, workers, all, sharding, frontend, admin, monitoring,
                    new Closer(topology, drains, adminWork, jobs));
            proxy.report = report;
            holder[0] = proxy;
            proxy.serving.set(true);
            return proxy;
        } catch (InterruptedException | RuntimeException e) {
            if (jobs != null) {
                jobs.close();
            }
            topology.close();
            drains.close();
            adminWork.shutdownNow();
            monitoring.close();
            workers.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** The shard's pools, and a lag monitor for its replicas on their servers' monitoring loops. */
    private static ShardBackends backends(ShardgateConfig config, ShardConfig shard, BackendFactory factory,
                                          EngineHealth health, BackendLoops monitoring) {
        BackendPool primary = factory.primary(shard.name(), shard.primary());
        List<ReplicaBackend> replicas = new ArrayList<>();
        shard.replicas().forEach(address -> replicas.add(factory.replica(shard.name(), address)));
        ReplicaLagMonitor monitor = null;
        if (!replicas.isEmpty()) {
            monitor = factory.monitor(shard.name(), shard.primary(), replicas, config.routing());
            monitor.start(server -> monitoring.loop(server.host(), server.port()));
        }
        return new ShardBackends(shard.name(), primary, replicas, monitor, health);
    }

    /**
     * The backends of a shard a topology change added (it owns no keys yet): its pools, a lag monitor on loops of its own,
     * its health probed, and all of it in the reports.
     */
    private static ShardBackends addedShard(ShardgateConfig config, ShardConfig shard, BackendFactory factory, EngineHealth health,
                                            BackendReport report) {
        BackendPool primary = factory.primary(shard.name(), shard.primary());
        List<ReplicaBackend> replicas = new ArrayList<>();
        shard.replicas().forEach(address -> replicas.add(factory.replica(shard.name(), address)));
        ReplicaLagMonitor monitor = replicas.isEmpty() ? null : factory.monitor(shard.name(), shard.primary(), replicas, config.routing());
        if (monitor != null) {
            monitor.start();
        }
        ShardBackends backends = new ShardBackends(shard.name(), primary, replicas, monitor, health);
        health.addBackend(shard.name(), "primary", shard.engine(), shard.primary());
        for (ReplicaBackend replica : replicas) {
            factory.registerReplica(backends, replica);
            health.addReplica(shard.name(), shard.engine(), replica.pool().target().address());
        }
        report.add(backends);
        return backends;
    }

    /** The shard that keeps the XA decision log ({@code transactions.decision_shard}) is not removed live. */
    private static ShardUse decisionLog(ShardgateConfig config) {
        String shard = config.transactions().decisionShard();
        return name -> name.equals(shard) ? Optional.of("it keeps the XA decisions (transactions.decision_shard in the config"
                + " file): name another shard there and restart the proxies first") : Optional.empty();
    }

    /** The admin API's JSON endpoints; {@code /api/v1/schema} (the tables' columns per shard) in a sharded deployment. */
    private static Map<String, java.util.function.Supplier<String>> jsonEndpoints(BackendReport report, EngineHealth health,
                                                                                 Optional<ShardingRuntime> sharding) {
        Map<String, java.util.function.Supplier<String>> endpoints = new LinkedHashMap<>();
        endpoints.put("/api/v1/replicas", report::replicasJson);
        endpoints.put("/shards", health::shardsJson);
        endpoints.put("/api/v1/lag/history", report::lagHistoryJson);
        sharding.ifPresent(runtime -> endpoints.put("/api/v1/schema", new SchemaReport(runtime.columns())::json));
        return endpoints;
    }

    /** The configured PEM pair, or a self-signed certificate made now; TLS 1.2 and 1.3 only. */
    private static SslContext tls(ShardgateConfig config, SecureRandom random) {
        try {
            TlsMaterial material = config.tls().certificate().isPresent()
                    ? TlsMaterial.fromPemFiles(config.tls().certificate().get(), config.tls().privateKey().orElseThrow())
                    : TlsMaterial.selfSigned(SelfSignedCertificate.generate(SelfSignedCertificate.KeyType.RSA_2048,
                    random, Instant.now()));
            return material.serverContext();
        } catch (IOException e) {
            throw new ConfigException("tls: cannot load the certificate or key: " + e.getMessage());
        }
    }

    /** Each backend's role, lag, state and load, as SHOW SHARDGATE BACKENDS shows them. */
    public BackendReport backendReport() {
        return report;
    }

    public int port() {
        return frontend.port();
    }

    public int adminPort() {
        return admin.port();
    }

    public String transportName() {
        return transport.name();
    }

    @Override
    public void close() {
        serving.set(false);
        frontend.close();
        admin.close();
        topology.close();
        sharding.ifPresent(ShardingRuntime::close);
        for (ShardBackends shard : backends) {
            shard.close();
        }
        monitoring.close();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
