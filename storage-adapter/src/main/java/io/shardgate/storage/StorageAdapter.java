package io.shardgate.storage;

import java.util.Map;

/**
 * What Shardgate knows about one storage engine. One implementation per engine is found with
 * {@link java.util.ServiceLoader}; {@link StorageAdapters} picks the one a shard's {@code engine:}
 * names.
 */
public interface StorageAdapter {

    Engine engine();

    /**
     * The server options a MariaDB node needs to run this engine as its default, as
     * {@code option -> value}; an empty value means a bare flag.
     */
    Map<String, String> serverOptions();
}
