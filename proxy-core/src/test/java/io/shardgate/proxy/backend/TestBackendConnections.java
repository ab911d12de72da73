package io.shardgate.proxy.backend;

import io.netty.channel.embedded.EmbeddedChannel;
import io.shardgate.proxy.config.HostPort;
import io.shardgate.proxy.protocol.Capabilities;

/**
 * Backend connections over an {@link EmbeddedChannel} for tests of other packages: what a test
 * writes inbound on the channel is the server's response; what the connection sends, its outbound.
 */
public final class TestBackendConnections {
    /** The capabilities of a proxy's backend connection: protocol 4.1, results ended by an OK (no EOF packets). */
    public static final long CAPABILITIES = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_DEPRECATE_EOF;

    private TestBackendConnections() {
    }

    /** A connection to shard {@code s0}'s server in {@code role} ("primary", "replica"), as if logged in. */
    public static BackendConnection over(EmbeddedChannel channel, String role) {
        return new BackendConnection(channel, new BackendTarget("s0", role, new HostPort("127.0.0.1", 1)), CAPABILITIES, 0, 7, "", 4);
    }
}
