package io.shardgate.proxy.topology;

import io.shardgate.proxy.config.RoutingConfig;
import io.shardgate.proxy.routing.RoutingSettings;

import static java.util.Objects.requireNonNull;

/**
 * The topology this proxy serves: the version it applied last, the routing settings in force, the
 * last version it refused (and why), and whether its store is reachable. Read by the frontend
 * (routing, {@code SHOW SHARDGATE TOPOLOGY}) and the admin API; written only by the applier.
 */
public final class LiveTopology {
    /** A version this proxy applied, and when (epoch milliseconds). */
    public record Applied(long version, TopologyDocument document, long appliedAtMillis) {
        public Applied {
            requireNonNull(document, "document is null");
        }
    }

    /** A version this proxy could not apply, and why. */
    public record Refused(long version, String reason) {
        public Refused {
            requireNonNull(reason, "reason is null");
        }
    }

    private final RoutingSettings routing;
    private final String store;
    private volatile Applied applied;
    private volatile Refused refused;
    private volatile boolean storeAvailable = true;

    public LiveTopology(long version, TopologyDocument document, String store) {
        this.applied = new Applied(version, requireNonNull(document, "document is null"), System.currentTimeMillis());
        this.routing = new RoutingSettings(document.routing());
        this.store = requireNonNull(store, "store is null");
    }

    /** The routing settings in force; a read takes them once, when it is routed. */
    public RoutingSettings routing() {
        return routing;
    }

    public RoutingConfig routingConfig() {
        return routing.get();
    }

    public Applied applied() {
        return applied;
    }

    public long version() {
        return applied.version();
    }

    /** The last version refused since the last one applied; null when none. */
    public Refused refused() {
        return refused;
    }

    /** Names the store: "file …" or "etcd …". */
    public String store() {
        return store;
    }

    /** False while the store cannot be reached: the proxy serves its last applied version ({@code DEGRADED}). */
    public boolean storeAvailable() {
        return storeAvailable;
    }

    /** {@code OK}, or {@code DEGRADED} while the store is away. */
    public String state() {
        return storeAvailable ? "OK" : "DEGRADED";
    }

    void storeAvailable(boolean available) {
        this.storeAvailable = available;
    }

    /** {@code version} now serves: the routing settings switch with it. */
    synchronized void applied(long version, TopologyDocument document) {
        routing.set(document.routing());
        applied = new Applied(version, document, System.currentTimeMillis());
        refused = null;
        notifyAll();
    }

    synchronized void refused(long version, String reason) {
        refused = new Refused(version, reason);
        notifyAll();
    }

    /** Waits up to {@code timeout} until {@code version} (or a newer one) serves or is refused; true when it serves. */
    public synchronized boolean awaitVersion(long version, java.time.Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (applied.version() < version && (refused == null || refused.version() < version)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            try {
                java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(this, left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return applied.version() >= version;
    }
}
