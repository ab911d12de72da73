package io.shardgate.proxy.config;

import java.time.Duration;

/**
 * Resource limits.
 *
 * @param maxClientConnections   client connections beyond this get ERR 1040
 * @param maxBackendConnections  connections per backend server
 * @param backendAcquireTimeout  how long a statement waits for a free backend connection
 * @param backendConnectTimeout  TCP connect plus login to a backend
 * @param handshakeTimeout       a client must finish authentication within this
 * @param idleTimeout            an idle authenticated client is disconnected after this
 * @param maxAllowedPacket       the largest client packet, in bytes (ERR 1153 beyond)
 * @param maxPreparedStatements  prepared statements one client session may hold (ERR 1461 beyond)
 * @param backendStatementCache  statements kept prepared per backend connection, least recently used evicted
 * @param maxBufferedRows        rows a merge operator that must buffer (sorting, grouping without order) may hold
 * @param sequenceBlock          ids a proxy takes from a global sequence at once
 */
public record LimitsConfig(int maxClientConnections, int maxBackendConnections, Duration backendAcquireTimeout,
                           Duration backendConnectTimeout, Duration handshakeTimeout, Duration idleTimeout,
                           long maxAllowedPacket, int maxPreparedStatements, int backendStatementCache,
                           long maxBufferedRows, int sequenceBlock) {
    public static final LimitsConfig DEFAULTS = new LimitsConfig(2000, 200, Duration.ofSeconds(5),
            Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofHours(8), 64L * 1024 * 1024, 16382, 256, 100_000, 1000);
}
