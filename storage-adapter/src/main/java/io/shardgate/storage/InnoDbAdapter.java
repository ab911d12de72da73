package io.shardgate.storage;

import java.util.Map;

/** InnoDB, MariaDB's default engine. */
public final class InnoDbAdapter implements StorageAdapter {

    @Override
    public Engine engine() {
        return Engine.INNODB;
    }

    @Override
    public Map<String, String> serverOptions() {
        return Map.of("default_storage_engine", "InnoDB");
    }
}
