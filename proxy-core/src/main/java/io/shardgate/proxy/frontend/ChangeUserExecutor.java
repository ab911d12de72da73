package io.shardgate.proxy.frontend;

import io.netty.channel.ChannelHandlerContext;
import io.shardgate.proxy.protocol.ChangeUserRequest;
import io.shardgate.proxy.protocol.HandshakeResponse41;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.OkPacket;
import io.shardgate.proxy.protocol.ServerStatus;

/**
 * COM_CHANGE_USER: the old session ends (its backend connection goes back to the pool, where it is
 * reset) and the client authenticates again with the connection's {@link Authenticator}, through
 * an auth switch when the new user's plugin differs from the one the client used. A failed change
 * closes the connection, as MariaDB does.
 */
final class ChangeUserExecutor implements CommandExecutor {
    private final CommandScope scope;
    private final Authenticator authenticator;
    private final long connectionId;
    /** The handshake the session stands on: the connection's, then each change's. */
    private HandshakeResponse41 response;

    ChangeUserExecutor(CommandScope scope, Login login) {
        this.scope = scope;
        this.authenticator = login.authenticator();
        this.connectionId = login.connectionId();
        this.response = login.response();
    }

    @Override
    public void execute(MySqlPacket packet) {
        ClientSession session = scope.session();
        ChangeUserRequest request;
        int sequence = packet.sequenceId() + 1;
        try {
            request = ChangeUserRequest.decode(packet.payload(), session.capabilities());
        } finally {
            packet.release();
        }
        scope.context().registry().unregister(session);
        scope.router().endSession(session, true);
        if (scope.sharded() != null) {
            scope.sharded().close();
            scope.sharded(null);
        }
        scope.busy();
        response = new HandshakeResponse41(session.capabilities(), response.maxPacketSize(),
                request.charset() == 0 ? response.charset() : request.charset(), request.user(), request.authResponse(),
                request.schema(), request.authPlugin(), request.attributes(), response.zstdLevel());
        scope.session(null);
        scope.exchange(this::next);
        checked(authenticator.begin(scope.ctx(), sequence, request.user(), request.authPlugin(), request.authResponse()));
    }

    private void next(MySqlPacket packet) {
        checked(authenticator.next(scope.ctx(), packet));
    }

    /** A step of the authentication: the new user's session opens, in its schema if it named one. */
    private void checked(Authenticator.Outcome outcome) {
        if (outcome.pending()) {
            return;
        }
        int sequence = outcome.sequence();
        if (outcome.refused()) {
            scope.context().metrics().authFailed();
            scope.sendErrorAndClose(sequence, outcome.error());
            return;
        }
        ChannelHandlerContext ctx = scope.ctx();
        ClientSession session = new ClientSession(connectionId, ctx.channel(), response.user(), Authenticator.clientHost(ctx),
                response.capabilities(), response.database(), response.charset(),
                scope.context().config().limits().maxPreparedStatements());
        scope.session(session);
        scope.context().registry().register(session);
        if (response.database().isEmpty()) {
            changed(sequence);
            return;
        }
        ctx.channel().config().setAutoRead(false);
        RoutedCommandPhase.openSchema(scope.router(), session, ctx.channel().eventLoop()).whenComplete((ok, error) -> {
            if (error != null) {
                scope.sendErrorAndClose(sequence, scope.context().errors().translate(error).packet());
                return;
            }
            changed(sequence);
        });
    }

    private void changed(int sequence) {
        ClientSession session = scope.session();
        scope.exchange(null);
        scope.sharded(scope.context().sharding()
                .map(deployment -> new ShardedCommands(scope.context(), deployment, session)).orElse(null));
        ChannelHandlerContext ctx = scope.ctx();
        ctx.writeAndFlush(new MySqlPacket(sequence, OkPacket.of(0, 0, ServerStatus.AUTOCOMMIT, 0)
                .encode(ctx.alloc(), session.capabilities())));
        ctx.channel().config().setAutoRead(true);
        scope.context().metrics().authenticated();
        scope.commandDone();
    }
}
