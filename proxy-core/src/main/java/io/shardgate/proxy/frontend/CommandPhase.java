package io.shardgate.proxy.frontend;

import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoop;

import java.util.concurrent.CompletableFuture;

/**
 * What the connection phase hands an authenticated client over to: the seam between
 * {@link ConnectionPhaseHandler} and the backends. {@link RoutedCommandPhase} is the proxy's; tests
 * use a hand-written fake.
 */
interface CommandPhase {
    /**
     * Brings the session into the schema the client connected with (only called when it named one).
     * Completes on {@code loop}, exceptionally when the schema cannot be used (unknown, or no backend).
     */
    CompletableFuture<Void> openSchema(ClientSession session, EventLoop loop);

    /** The session ends before its command phase began: the client left while its schema was being opened. */
    void abandon(ClientSession session);

    /** The handler that serves the authenticated connection's commands; it takes the connection phase's place. */
    ChannelHandler commands(Login login);
}
