package io.shardgate.storage;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The storage engine a shard runs on. The config name is what a shard's {@code engine:} key
 * holds; the server name is what {@code SHOW ENGINES} and {@code SHOW CREATE TABLE} print.
 */
public enum Engine {
    INNODB("innodb", "InnoDB"),
    ROCKSDB("rocksdb", "ROCKSDB");

    private final String configName;
    private final String serverName;

    Engine(String configName, String serverName) {
        this.configName = configName;
        this.serverName = serverName;
    }

    public String configName() {
        return configName;
    }

    public String serverName() {
        return serverName;
    }

    /** Parses a config value such as {@code innodb} or {@code rocksdb}, ignoring case. */
    public static Engine fromConfigName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("engine is empty (expected one of: " + configNames() + ")");
        }
        String wanted = name.trim().toLowerCase(Locale.ROOT);
        for (Engine engine : values()) {
            if (engine.configName.equals(wanted)) {
                return engine;
            }
        }
        throw new IllegalArgumentException("unknown engine '" + name + "' (expected one of: " + configNames() + ")");
    }

    private static String configNames() {
        return Arrays.stream(values()).map(Engine::configName).collect(Collectors.joining(", "));
    }
}
