package io.shardgate.proxy.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetric;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.proxy.protocol.Command;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntSupplier;

import static java.util.Objects.requireNonNull;

/**
 * The proxy's meters, under stable {@code shardgate_*} names. Counters are created once here, so
 * the hot path only increments.
 */
public final class ProxyMetrics {
    private final MeterRegistry registry;
    private final Counter connectionsOpened;
    private final Counter connectionsRefused;
    private final Counter readsRetried;
    private final Counter authFailures;
    private final Counter authSuccesses;
    private final Counter bytesIn;
    private final Counter bytesOut;
    private final Map<Command, Counter> commands = new EnumMap<>(Command.class);
    private final Timer commandLatency;

    public ProxyMetrics(MeterRegistry registry, IntSupplier openConnections) {
        this.registry = requireNonNull(registry, "registry is null");
        connectionsOpened = Counter.builder("shardgate_client_connections_opened").register(registry);
        readsRetried = Counter.builder("shardgate_reads_retried")
                .description("Replica reads answered by the primary because their replica could not take them or failed before answering")
                .register(registry);
        connectionsRefused = Counter.builder("shardgate_client_connections_refused")
                .description("Connections refused at max_client_connections").register(registry);
        authFailures = Counter.builder("shardgate_client_auth").tag("result", "failure").register(registry);
        authSuccesses = Counter.builder("shardgate_client_auth").tag("result", "success").register(registry);
        bytesIn = Counter.builder("shardgate_client_bytes").tag("direction", "in").register(registry);
        bytesOut = Counter.builder("shardgate_client_bytes").tag("direction", "out").register(registry);
        Gauge.builder("shardgate_client_connections", openConnections::getAsInt)
                .description("Open client connections").register(registry);
        for (Command command : Command.values()) {
            commands.put(command, Counter.builder("shardgate_commands")
                    .tag("command", command.name().toLowerCase(Locale.ROOT)).register(registry));
        }
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        if (ByteBufAllocator.DEFAULT instanceof ByteBufAllocatorMetricProvider provider) {
            ByteBufAllocatorMetric metric = provider.metric();
            Gauge.builder("shardgate_netty_memory_used_bytes", metric::usedDirectMemory).tag("kind", "direct")
                    .description("Memory held by Netty's buffer allocator (I/O buffers live here)").register(registry);
            Gauge.builder("shardgate_netty_memory_used_bytes", metric::usedHeapMemory).tag("kind", "heap")
                    .register(registry);
        }
        commandLatency = Timer.builder("shardgate_command_latency")
                .description("Time from a command's arrival to the end of its response")
                .publishPercentileHistogram().register(registry);
    }

    public MeterRegistry registry() {
        return registry;
    }

    public void registerPool(BackendPool pool) {
        String shard = pool.target().shard();
        String role = pool.target().role();
        String address = pool.target().address().toString();
        Gauge.builder("shardgate_backend_connections", pool::inUse).tag("shard", shard).tag("role", role)
                .tag("address", address).tag("state", "in_use").register(registry);
        Gauge.builder("shardgate_backend_connections", pool::idle).tag("shard", shard).tag("role", role)
                .tag("address", address).tag("state", "idle").register(registry);
        Gauge.builder("shardgate_backend_pool_waiting", pool::waiting).tag("shard", shard).tag("role", role)
                .tag("address", address).register(registry);
        Gauge.builder("shardgate_backend_pool_max", pool::maxConnections).tag("shard", shard).tag("role", role)
                .tag("address", pool.target().address().toString()).register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("shardgate_backend_served", pool, BackendPool::served)
                .tag("shard", shard).tag("role", role).tag("address", pool.target().address().toString())
                .description("Commands routed to this backend").register(registry);
    }

    /** Per-replica gauges: measured lag (-1 while infinitely stale), health state, and its pool. */
    public void registerReplica(io.shardgate.proxy.routing.ShardBackends shard, io.shardgate.proxy.routing.ReplicaBackend replica) {
        registerPool(replica.pool());
        String address = replica.server().address();
        Gauge.builder("shardgate_replica_lag_ms", () -> shard.lag(replica).lagMillis().orElse(-1))
                .tag("shard", shard.shard()).tag("replica", address)
                .description("Measured replica lag on the proxy's clock; -1 while infinitely stale").register(registry);
        for (io.shardgate.replication.lag.ReplicaState state : io.shardgate.replication.lag.ReplicaState.values()) {
            Gauge.builder("shardgate_replica_state", () -> shard.lag(replica).state() == state ? 1 : 0)
                    .tag("shard", shard.shard()).tag("replica", address).tag("state", state.name()).register(registry);
        }
    }

    /**
     * Removes the gauges of the backend at {@code address} (its pool's and, for a replica, its lag's):
     * a topology change took it out, and a later one may add a new backend at the same address.
     */
    public void forget(String address) {
        for (io.micrometer.core.instrument.Meter meter : List.copyOf(registry.getMeters())) {
            String tagged = meter.getId().getTag("address");
            String replica = meter.getId().getTag("replica");
            if (address.equals(tagged) || address.equals(replica)) {
                registry.remove(meter);
            }
        }
    }

    /**
     * A read chosen for a replica that went to the primary instead: the replica could not take it
     * (unreachable, pool exhausted), or failed before any byte of its answer reached the client.
     */
    public void readRetried() {
        readsRetried.increment();
    }

    public void connectionOpened() {
        connectionsOpened.increment();
    }

    public void connectionClosed() {
        // The open-connections gauge follows the registry; nothing to count here.
    }

    public void connectionRefused() {
        connectionsRefused.increment();
    }

    public void authFailed() {
        authFailures.increment();
    }

    public void authenticated() {
        authSuccesses.increment();
    }

    public void command(Command command) {
        commands.get(command).increment();
    }

    public Timer commandLatency() {
        return commandLatency;
    }

    public void bytesIn(long bytes) {
        bytesIn.increment(bytes);
    }

    public void bytesOut(long bytes) {
        bytesOut.increment(bytes);
    }

    /** A backend's ERR relayed to a client, counted by the storage adapters' error class. */
    public void backendError(int errno) {
        io.shardgate.storage.BackendErrorClass errorClass = io.shardgate.storage.BackendErrorClass.of(errno);
        Counter.builder("shardgate_backend_errors").tag("class", errorClass.name())
                .description("Backend errors relayed to clients, by class (retryable, misconfiguration, capacity, ...)")
                .register(registry).increment();
    }

    public void error(int errno) {
        Counter.builder("shardgate_errors_sent").tag("errno", Integer.toString(errno)).register(registry).increment();
    }
}
