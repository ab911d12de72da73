package io.shardgate.proxy.backend;

import io.netty.channel.EventLoop;

import java.util.concurrent.CompletableFuture;

/**
 * Opens one logged-in connection to a backend for a {@link BackendPool}: {@link BackendConnector}
 * over the network, or a test's fake over an {@code EmbeddedChannel}.
 */
@FunctionalInterface
public interface ConnectionOpener {
    /**
     * Connects on {@code loop} and logs in. {@code shapingCapabilities} are the client's
     * response-shaping flags; {@code schema} may be empty.
     */
    CompletableFuture<BackendConnection> connect(EventLoop loop, BackendTarget target, long shapingCapabilities, String schema);
}
