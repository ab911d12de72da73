package io.shardgate.proxy.frontend;

import io.netty.channel.ChannelHandlerContext;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.LocalResultSet;
import io.shardgate.proxy.protocol.MySqlPacket;

import java.util.function.Consumer;

/**
 * What a command executor sees of its client connection: the session, the ways to answer, and the
 * end of the command. {@link FrontendHandler} implements it; it keeps the sequencing (one command at
 * a time), the channel's lifecycle and backpressure to itself.
 */
interface CommandScope {
    FrontendContext context();

    ChannelHandlerContext ctx();

    ClientSession session();

    /** The session after COM_CHANGE_USER (null while the new user is being authenticated). */
    void session(ClientSession session);

    /** The session's sharded commands in a sharded deployment; null otherwise. */
    ShardedCommands sharded();

    void sharded(ShardedCommands sharded);

    CommandRouter router();

    StatementRunner runner();

    /** An OK the proxy answers itself, carrying the session's transaction state. */
    void writeOk(int sequence);

    void writeError(int sequence, ErrPacket error);

    /** A result set the proxy answers itself, at sequence ids from 1. */
    void writeResult(LocalResultSet result);

    /** Sends {@code error} and closes the connection. */
    void sendErrorAndClose(int sequence, ErrPacket error);

    /** Closes the connection (COM_QUIT). */
    void close();

    /** The command continues asynchronously: later packets wait until it ends. */
    void busy();

    /** After a command: the session lets go of its backend connection unless it must hold it, then the next one runs. */
    void afterCommand();

    /** Ends the command without touching the backend; the next one runs. */
    void commandDone();

    /** {@code commands} run next, in order, before any command the client sent after this one (a split multi-statement). */
    void runFirst(java.util.List<MySqlPacket> commands);

    /** Runs {@code action} on the connection's event loop. */
    void onLoop(Runnable action);

    /**
     * Until called again with null, the client's packets go to {@code exchange} instead of starting
     * commands (COM_CHANGE_USER's authentication exchange).
     */
    void exchange(Consumer<MySqlPacket> exchange);
}
