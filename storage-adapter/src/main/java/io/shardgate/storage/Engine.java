package io.shardgate.storage;

import java.util.Locale;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * A storage engine a shard can run on: whatever a {@link StorageAdapter} on the class path declares.
 * The config name is what a shard's {@code engine:} key holds; the server name is what
 * {@code information_schema.ENGINES}, {@code SHOW ENGINES} and {@code SHOW CREATE TABLE} print;
 * the aliases are other names the server accepts in {@code ENGINE=} for it. Two engines are equal
 * when their config names are. {@link StorageAdapters} resolves a config name to an engine.
 *
 * <p>The two engines Shardgate ships adapters for are constants here, for tests, the demo and the
 * bench; nothing else in the code treats them specially.
 */
public final class Engine {
    public static final Engine INNODB = new Engine("innodb", "InnoDB", Set.of("INNOBASE"));
    public static final Engine ROCKSDB = new Engine("rocksdb", "ROCKSDB", Set.of("MYROCKS"));

    private final String configName;
    private final String serverName;
    private final Set<String> aliases;

    /**
     * @param configName the {@code engine:} value, lower case (compared ignoring case)
     * @param serverName the name the server reports, as it spells it
     * @param aliases    other names the server accepts in {@code ENGINE=}
     */
    public Engine(String configName, String serverName, Set<String> aliases) {
        requireNonNull(configName, "configName is null");
        requireNonNull(serverName, "serverName is null");
        if (configName.isBlank() || !configName.equals(configName.trim().toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("engine config name must be non-empty, trimmed lower case: '" + configName + "'");
        }
        if (serverName.isBlank()) {
            throw new IllegalArgumentException("engine " + configName + ": server name is empty");
        }
        this.configName = configName;
        this.serverName = serverName;
        this.aliases = Set.copyOf(requireNonNull(aliases, "aliases is null"));
    }

    public Engine(String configName, String serverName) {
        this(configName, serverName, Set.of());
    }

    public String configName() {
        return configName;
    }

    public String serverName() {
        return serverName;
    }

    public Set<String> aliases() {
        return aliases;
    }

    /** Whether {@code name} (in {@code ENGINE=} or config) means this engine: any of its names, ignoring case. */
    public boolean isNamed(String name) {
        requireNonNull(name, "name is null");
        if (configName.equalsIgnoreCase(name) || serverName.equalsIgnoreCase(name)) {
            return true;
        }
        for (String alias : aliases) {
            if (alias.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Engine engine && engine.configName.equals(configName);
    }

    @Override
    public int hashCode() {
        return configName.hashCode();
    }

    /** The config name in upper case ({@code INNODB}, {@code ROCKSDB}), as the enum this was printed. */
    @Override
    public String toString() {
        return configName.toUpperCase(Locale.ROOT);
    }
}
