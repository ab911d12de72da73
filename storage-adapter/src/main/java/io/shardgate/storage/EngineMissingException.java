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

    public EngineMissingException(String shard, Engine engine, String address, String support) {
        super("shard " + requireNonNull(shard, "shard is null") + ": the server at "
                + requireNonNull(address, "address is null") + " lacks the engine "
                + requireNonNull(engine, "engine is null").serverName() + " (information_schema.ENGINES: "
                + requireNonNull(support, "support is null") + ")" + hint(engine));
        this.shard = shard;
        this.engine = engine;
        this.address = address;
    }

    private static String hint(Engine engine) {
        return engine == Engine.ROCKSDB ? "; load it with plugin_load_add=ha_rocksdb or change the shard's engine" : "";
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
