package io.shardgate.storage;

import static java.util.Objects.requireNonNull;

/**
 * A shard's server lacks the engine the shard's config names. Shardgate refuses to start such a
 * shard rather than let tables silently land in another engine.
 */
public final class EngineMissingException extends RuntimeException {
    private final String shard;
    private final Engine engine;
    private final String address;

    /**
     * @param hint how to give the server the engine, from its adapter's server options (such as
     *             {@code plugin_load_add=ha_rocksdb}), or empty
     */
    public EngineMissingException(String shard, Engine engine, String address, String support, String hint) {
        super("shard " + requireNonNull(shard, "shard is null") + ": the server at "
                + requireNonNull(address, "address is null") + " lacks the engine "
                + requireNonNull(engine, "engine is null").serverName() + " (information_schema.ENGINES: "
                + requireNonNull(support, "support is null") + ")"
                + (requireNonNull(hint, "hint is null").isEmpty() ? "" : "; load it with " + hint + " or change the shard's engine"));
        this.shard = shard;
        this.engine = engine;
        this.address = address;
    }

    public String shard() {
        return shard;
    }

    public Engine engine() {
        return engine;
    }

    public String address() {
        return address;
    }
}
