package io.shardgate.replication.stream;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

import static java.util.Objects.requireNonNull;

/** Where a server is and how to log in; {@code toString} leaves the password out. */
public record ServerEndpoint(String host, int port, String user, String password) {
    public ServerEndpoint {
        requireNonNull(host, "host is null");
        requireNonNull(user, "user is null");
        requireNonNull(password, "password is null");
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is not a TCP port");
        }
    }

    /** Parses {@code HOST:PORT}. */
    public static ServerEndpoint parse(String hostPort, String user, String password) {
        requireNonNull(hostPort, "hostPort is null");
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0 || colon == hostPort.length() - 1) {
            throw new IllegalArgumentException("'" + hostPort + "' must be HOST:PORT");
        }
        try {
            return new ServerEndpoint(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)),
                    user, password);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + hostPort + "' must be HOST:PORT", e);
        }
    }

    public String address() {
        return host + ":" + port;
    }

    /** A control connection (MariaDB Connector/J); the caller closes it. */
    public Connection connect() throws SQLException {
        return connect("");
    }

    /** A connection with extra Connector/J URL options ({@code name=value&...}); the caller closes it. */
    public Connection connect(String urlOptions) throws SQLException {
        requireNonNull(urlOptions, "urlOptions is null");
        return DriverManager.getConnection("jdbc:mariadb://" + host + ":" + port
                + "/?connectTimeout=5000&socketTimeout=600000" + (urlOptions.isEmpty() ? "" : "&" + urlOptions),
                user, password);
    }

    @Override
    public String toString() {
        return user + "@" + address();
    }
}
