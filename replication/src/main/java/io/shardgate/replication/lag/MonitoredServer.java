package io.shardgate.replication.lag;

import static java.util.Objects.requireNonNull;

/** A server the lag monitor polls. The account to log in with is the monitor's. */
public record MonitoredServer(String host, int port) {
    public MonitoredServer {
        requireNonNull(host, "host is null");
        if (host.isBlank()) {
            throw new IllegalArgumentException("host is blank");
        }
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("port: " + port + " (expected: 1 to 65535)");
        }
    }

    /** {@code host:port}, as the proxy config writes it. */
    public String address() {
        return host + ":" + port;
    }

    @Override
    public String toString() {
        return address();
    }
}
