package io.shardgate.proxy.topology;

import java.util.List;
import java.util.function.Consumer;

/**
 * Where a deployment's topology document lives: one versioned JSON document (shards, sharded schemas,
 * routing settings, each backend's administrative state, the change history), which every proxy of
 * the deployment follows, and the proxies' own registrations.
 *
 * <p>Two implementations: the YAML file of a single proxy ({@code file}) and an etcd v3 cluster
 * ({@code etcd}). Versions grow with every write and are never reused; version 0 means "no document
 * yet". Nothing on a client's query path calls a store: proxies apply what {@link #watch} delivers.
 */
public interface TopologyStore extends AutoCloseable {
    /** The newest document; throws {@link TopologyStoreUnavailableException} when the store cannot be reached. */
    StoredTopology read();

    /**
     * Writes {@code json} when the stored version is still {@code expectedVersion} (0: only when there is no
     * document yet): {@link TopologyWrite.Written} with the new version, or {@link TopologyWrite.Conflict} with the
     * document that is there now. Throws {@link TopologyStoreUnavailableException} when the store cannot be reached:
     * then nothing was written, or (a timeout) the caller cannot know and must read again.
     */
    TopologyWrite compareAndSet(long expectedVersion, String json);

    /**
     * Delivers every version newer than {@code afterVersion}, in order, on one thread of the store's; the newest
     * when several arrive together may be all that is delivered. Survives the store's outages: once it is back,
     * whatever changed meanwhile is delivered.
     */
    void watch(long afterVersion, Consumer<StoredTopology> listener);

    /**
     * Registers this proxy (or updates its registration) under {@code registration.id()}; the registration lives
     * as long as the store hears from this proxy (an etcd lease), and is renewed after an outage.
     */
    void register(ProxyRegistration registration);

    /** The registrations of every proxy the store knows to be alive, this one included. */
    List<ProxyRegistration> registrations();

    /** False while the store cannot be reached (the proxy then serves from its last applied version). */
    boolean available();

    /** Names the store for operators and error messages: "file /etc/shardgate.yaml", "etcd http://10.0.0.1:2379,...". */
    String describe();

    @Override
    void close();
}
