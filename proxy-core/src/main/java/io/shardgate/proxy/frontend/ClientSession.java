package io.shardgate.proxy.frontend;

import io.netty.channel.Channel;
import io.shardgate.proxy.backend.BackendConnection;

/**
 * What Shardgate knows about one authenticated client connection: who it is, the capabilities
 * it negotiated, its schema, and the backend connection pinned to it.
 */
final class ClientSession {
    private final long connectionId;
    private final Channel channel;
    private final String user;
    private final String host;
    private final long capabilities;
    private String schema;
    private int status = io.shardgate.proxy.protocol.ServerStatus.AUTOCOMMIT;
    private volatile BackendConnection backend;

    ClientSession(long connectionId, Channel channel, String user, String host, long capabilities, String schema) {
        this.connectionId = connectionId;
        this.channel = channel;
        this.user = user;
        this.host = host;
        this.capabilities = capabilities;
        this.schema = schema;
    }

    long connectionId() {
        return connectionId;
    }

    Channel channel() {
        return channel;
    }

    String user() {
        return user;
    }

    String host() {
        return host;
    }

    long capabilities() {
        return capabilities;
    }

    String schema() {
        return schema;
    }

    void schema(String schema) {
        this.schema = schema;
    }

    /** Transaction-related status flags from the backend's last complete response. */
    int status() {
        return status;
    }

    void status(int serverStatus) {
        int kept = io.shardgate.proxy.protocol.ServerStatus.IN_TRANS | io.shardgate.proxy.protocol.ServerStatus.AUTOCOMMIT
                | io.shardgate.proxy.protocol.ServerStatus.IN_TRANS_READONLY
                | io.shardgate.proxy.protocol.ServerStatus.NO_BACKSLASH_ESCAPES;
        this.status = serverStatus & kept;
    }

    BackendConnection backend() {
        return backend;
    }

    void backend(BackendConnection backend) {
        this.backend = backend;
    }
}
