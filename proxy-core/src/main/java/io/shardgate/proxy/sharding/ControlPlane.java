package io.shardgate.proxy.sharding;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.shardgate.proxy.config.HostPort;
import io.shardgate.proxy.config.ShardConfig;
import io.shardgate.proxy.config.ShardgateConfig;

import javax.sql.DataSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Shardgate's own JDBC connections to each shard's primary: sequence blocks, XA decisions and
 * {@code XA RECOVER}. Never carries client traffic (that goes over the native backend pools).
 *
 * <p>One small HikariCP pool per shard, created on first use, so building a control plane opens no
 * connection and a shard that is down only fails the calls that need it. Closing closes every pool.
 */
public final class ControlPlane implements AutoCloseable {
    static final int POOL_SIZE = 4;
    static final long CONNECT_TIMEOUT_MILLIS = 5_000;

    private final Map<String, HostPort> primaries;
    private final Map<String, PrimaryDataSource> sources = new LinkedHashMap<>();
    private final List<String> shards = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final String user;
    private final String password;
    private final Map<String, HikariDataSource> pools = new LinkedHashMap<>();
    private boolean closed;

    /** {@code primaries}: shard name to its primary's address, in config order. */
    public ControlPlane(Map<String, HostPort> primaries, String user, String password) {
        this.primaries = new LinkedHashMap<>(requireNonNull(primaries, "primaries is null"));
        this.user = requireNonNull(user, "user is null");
        this.password = requireNonNull(password, "password is null");
        this.shards.addAll(primaries.keySet());
    }

    /** The control plane of a config: every shard's primary, as the backend user. */
    public static ControlPlane of(List<ShardConfig> shards, ShardgateConfig.BackendUser backendUser) {
        Map<String, HostPort> primaries = new LinkedHashMap<>();
        for (ShardConfig shard : shards) {
            primaries.put(shard.name(), shard.primary());
        }
        return new ControlPlane(primaries, backendUser.name(), backendUser.password());
    }

    /** The shard names, in the order given (a shard added live last). */
    public List<String> shards() {
        return List.copyOf(shards);
    }

    /** A shard added live: XA recovery reaches it from now on, as a cutover may give it keys. */
    public synchronized void addShard(String shard, HostPort primary) {
        if (primaries.putIfAbsent(requireNonNull(shard, "shard is null"), requireNonNull(primary, "primary is null")) == null) {
            shards.add(shard);
        }
    }

    /** A shard removed live: XA recovery no longer reaches it, and its pool closes. */
    public void removeShard(String shard) {
        HikariDataSource old;
        synchronized (this) {
            primaries.remove(shard);
            shards.remove(shard);
            sources.remove(shard);
            old = pools.remove(shard);
        }
        if (old != null) {
            old.close();
        }
    }

    /**
     * The connections to {@code shard}'s primary: the pool opens on first use, and follows the primary when a topology
     * change replaces it ({@link #replacePrimary}).
     */
    public synchronized DataSource dataSource(String shard) {
        requireNonNull(shard, "shard is null");
        pool(shard);
        return sources.computeIfAbsent(shard, name -> new PrimaryDataSource(() -> pool(name)));
    }

    private synchronized HikariDataSource pool(String shard) {
        if (closed) {
            throw new IllegalStateException("control plane is closed");
        }
        HostPort primary = primaries.get(shard);
        if (primary == null) {
            throw new IllegalArgumentException("unknown shard '" + shard + "' (expected one of: "
                    + String.join(", ", shards) + ")");
        }
        return pools.computeIfAbsent(shard, name -> new HikariDataSource(config(name, primary)));
    }

    /**
     * A topology change made {@code primary} the primary of {@code shard}: the next connection goes there; the old pool
     * closes (its connections in use finish first, as HikariCP closes them when they come back).
     */
    public void replacePrimary(String shard, HostPort primary) {
        HikariDataSource old;
        synchronized (this) {
            if (!primaries.containsKey(shard)) {
                return;
            }
            primaries.put(shard, requireNonNull(primary, "primary is null"));
            old = pools.remove(shard);
        }
        if (old != null) {
            old.close();
        }
    }

    private HikariConfig config(String shard, HostPort primary) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("shardgate-control-" + shard);
        config.setJdbcUrl("jdbc:mariadb://" + primary.host() + ":" + primary.port()
                + "/?connectTimeout=" + CONNECT_TIMEOUT_MILLIS + "&socketTimeout=60000");
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(POOL_SIZE);
        config.setMinimumIdle(0);
        config.setConnectionTimeout(CONNECT_TIMEOUT_MILLIS);
        // Start without connecting: a shard that is down must not stop the proxy from starting.
        config.setInitializationFailTimeout(-1);
        config.setAutoCommit(true);
        return config;
    }

    @Override
    public void close() {
        List<HikariDataSource> open;
        synchronized (this) {
            closed = true;
            open = new ArrayList<>(pools.values());
            pools.clear();
        }
        for (HikariDataSource pool : open) {
            pool.close();
        }
    }
}
