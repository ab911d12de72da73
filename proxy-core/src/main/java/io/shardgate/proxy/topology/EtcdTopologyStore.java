package io.shardgate.proxy.topology;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * The topology in an etcd v3 cluster, through jetcd: the document is the value of {@code <prefix>/topology} and its
 * version is that key's mod revision (0: no key); each proxy's registration is {@code <prefix>/proxies/<id>}, under a
 * lease of the configured TTL that jetcd keeps alive.
 *
 * <ul>
 *   <li>{@link #read()} is a linearizable range get; {@link #compareAndSet} is one transaction: if the key's mod
 *   revision is the expected version (for 0: the key was never created), put, else get.</li>
 *   <li>Every call has the dial timeout as its deadline and throws {@link TopologyStoreUnavailableException} naming
 *   {@link #describe()} when etcd does not answer; nothing waits longer.</li>
 *   <li>{@link #available()} comes from those calls and from a probe (a linearizable count of the document's key,
 *   which needs a quorum) every {@link #PROBE_MILLIS} ms: false once etcd has not answered for a dial timeout. When
 *   the probe gets an answer after failures, watches read the document once more and a lost registration is renewed.
 *   </li>
 * </ul>
 */
public final class EtcdTopologyStore implements TopologyStore {
    static final long PROBE_MILLIS = 500;
    private static final System.Logger LOG = System.getLogger(EtcdTopologyStore.class.getName());

    private final EtcdStoreSettings settings;
    private final String describe;
    private final Client client;
    private final StoreAvailability availability;
    private final EtcdCalls calls;
    private final ByteSequence topologyKey;
    private final EtcdLeasedRegistration registration;
    private final RegistrationJson registrationJson = new RegistrationJson();
    private final ScheduledExecutorService events;
    private final ScheduledExecutorService prober;
    private final List<EtcdTopologyWatch> watches = new CopyOnWriteArrayList<>();
    private final AtomicBoolean probing = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ScheduledFuture<?> probe;
    private volatile boolean probeFailed;
    private final ReconnectNow reconnect;

    public EtcdTopologyStore(EtcdStoreSettings settings) {
        this.settings = requireNonNull(settings, "settings is null");
        this.describe = settings.describe();
        this.availability = new StoreAvailability(settings.dialTimeout(), System::nanoTime);
        this.calls = new EtcdCalls(describe, settings.dialTimeout(), availability);
        this.client = Client.builder()
                .endpoints(settings.endpoints().toArray(String[]::new))
                .connectTimeout(settings.dialTimeout())
                // One attempt per call, dropped by gRPC at our deadline: a retry or a queued call sent after we told
                // the caller it failed could apply a compare-and-set nobody waits for.
                .retryMaxAttempts(0)
                .interceptor(new UnaryDeadline(calls::deadline))
                .build();
        this.reconnect = new ReconnectNow(client);
        this.topologyKey = bytes(settings.topologyKey());
        this.registration = new EtcdLeasedRegistration(client, calls, registrationJson, settings.proxiesPrefix(),
                settings.leaseTtlSeconds());
        this.events = Executors.newSingleThreadScheduledExecutor(daemon("shardgate-etcd-watch"));
        this.prober = Executors.newSingleThreadScheduledExecutor(daemon("shardgate-etcd-probe"));
        this.probe = prober.scheduleWithFixedDelay(this::probe, 0, PROBE_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Override
    public StoredTopology read() {
        return snapshot().topology();
    }

    private EtcdTopologyWatch.Snapshot snapshot() {
        GetResponse response = calls.await("read " + settings.topologyKey(), () -> client.getKVClient().get(topologyKey));
        return new EtcdTopologyWatch.Snapshot(topology(response), response.getHeader().getRevision());
    }

    private static StoredTopology topology(GetResponse response) {
        if (response.getKvs().isEmpty()) {
            return new StoredTopology(0, "");
        }
        KeyValue kv = response.getKvs().get(0);
        return new StoredTopology(kv.getModRevision(), kv.getValue().toString(StandardCharsets.UTF_8));
    }

    @Override
    public TopologyWrite compareAndSet(long expectedVersion, String json) {
        requireNonNull(json, "json is null");
        if (expectedVersion < 0) {
            throw new IllegalArgumentException("expected version is negative: " + expectedVersion);
        }
        Cmp unchanged = expectedVersion == 0
                ? new Cmp(topologyKey, Cmp.Op.EQUAL, CmpTarget.createRevision(0))
                : new Cmp(topologyKey, Cmp.Op.EQUAL, CmpTarget.modRevision(expectedVersion));
        TxnResponse response = calls.await("write " + settings.topologyKey() + " over version " + expectedVersion,
                () -> client.getKVClient().txn()
                        .If(unchanged)
                        .Then(Op.put(topologyKey, bytes(json), PutOption.DEFAULT))
                        .Else(Op.get(topologyKey, GetOption.DEFAULT))
                        .commit());
        if (response.isSucceeded()) {
            return new TopologyWrite.Written(response.getHeader().getRevision());
        }
        List<GetResponse> gets = response.getGetResponses();
        return new TopologyWrite.Conflict(gets.isEmpty() ? new StoredTopology(0, "") : topology(gets.get(0)));
    }

    @Override
    public void watch(long afterVersion, Consumer<StoredTopology> listener) {
        requireNonNull(listener, "listener is null");
        if (closed.get()) {
            throw new IllegalStateException(describe + ": the store is closed");
        }
        EtcdTopologyWatch watch = new EtcdTopologyWatch(client.getWatchClient(), topologyKey, listener, events,
                this::snapshot, describe);
        watches.add(watch);
        watch.start(afterVersion);
    }

    @Override
    public void register(ProxyRegistration proxy) {
        requireNonNull(proxy, "proxy is null");
        registration.register(proxy);
    }

    @Override
    public List<ProxyRegistration> registrations() {
        String prefix = settings.proxiesPrefix();
        GetResponse response = calls.await("list " + prefix, () -> client.getKVClient().get(bytes(prefix),
                GetOption.builder().isPrefix(true).build()));
        List<ProxyRegistration> proxies = new ArrayList<>();
        for (KeyValue kv : response.getKvs()) {
            try {
                proxies.add(registrationJson.read(kv.getValue().toString(StandardCharsets.UTF_8)));
            } catch (IllegalArgumentException e) {
                // Someone else's key under our prefix: not a proxy of ours.
            }
        }
        return List.copyOf(proxies);
    }

    @Override
    public boolean available() {
        return availability.available();
    }

    @Override
    public String describe() {
        return describe;
    }

    /** One cheap linearizable call; when etcd answers after failures, catch up what an outage may have cost. */
    private void probe() {
        if (closed.get() || !probing.compareAndSet(false, true)) {
            return;
        }
        try {
            calls.await("probe", () -> client.getKVClient().get(topologyKey, GetOption.builder().withCountOnly(true).build()));
            boolean recovered = probeFailed;
            probeFailed = false;
            if (recovered) {
                watches.forEach(EtcdTopologyWatch::catchUp);
            }
            if (recovered || registration.leaseLost()) {
                registration.renewIfLost(recovered);
            }
        } catch (TopologyStoreUnavailableException e) {
            probeFailed = true;
            reconnect.reset();
        } catch (RuntimeException e) {
            probeFailed = true;
            reconnect.reset();
            LOG.log(System.Logger.Level.WARNING, describe + ": probe failed", e);
        } finally {
            probing.set(false);
        }
    }

    /**
     * Stops renewing the registration's lease and closes the client without revoking it: what a proxy that dies
     * leaves behind (its registration lives until the lease's TTL). For tests of lease expiry.
     */
    void abandonForTest() {
        if (closed.compareAndSet(false, true)) {
            registration.abandon();
            shutDown();
        }
    }

    /** Revokes this proxy's lease (best effort, within a short deadline) and closes the client. Safe to call twice. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            registration.revoke(Duration.ofMillis(Math.min(500, settings.dialTimeout().toMillis())));
            shutDown();
        }
    }

    private void shutDown() {
        probe.cancel(false);
        watches.forEach(EtcdTopologyWatch::close);
        prober.shutdown();
        events.shutdown();
        try {
            events.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        client.close();
    }

    private static ByteSequence bytes(String text) {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }

    private static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
