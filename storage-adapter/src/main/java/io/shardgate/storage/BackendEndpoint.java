package io.shardgate.storage;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * One backend server of a shard, as the control plane reaches it. {@link #toString()} never
 * shows the password.
 *
 * @param shard  the shard's name from the config
 * @param role   {@code primary} or {@code replica}, for messages only
 * @param engine the engine the shard's config names
 */
public record BackendEndpoint(String shard, String role, Engine engine, String host, int port, String user,
                              String password) {
    public BackendEndpoint {
        requireNonNull(shard, "shard is null");
        requireNonNull(role, "role is null");
        requireNonNull(engine, "engine is null");
        requireNonNull(host, "host is null");
        requireNonNull(user, "user is null");
        requireNonNull(password, "password is null");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port: " + port + " (expected: 1..65535)");
        }
    }

    /** {@code host:port}, with brackets around an IPv6 host. */
    public String address() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /**
     * A new control connection (MariaDB Connector/J). The connect timeout also bounds the
     * handshake, so a frozen server fails as fast as a dead one; the socket timeout bounds every
     * query.
     */
    public Connection connect(Duration connectTimeout, Duration socketTimeout) throws SQLException {
        requireNonNull(connectTimeout, "connectTimeout is null");
        requireNonNull(socketTimeout, "socketTimeout is null");
        String url = "jdbc:mariadb://" + address() + "/?connectTimeout=" + connectTimeout.toMillis()
                + "&socketTimeout=" + socketTimeout.toMillis();
        return DriverManager.getConnection(url, user, password);
    }

    @Override
    public String toString() {
        return shard + " " + role + " (" + engine.configName() + ", " + address() + ")";
    }
}
