package io.shardgate.proxy.frontend;

import io.shardgate.proxy.protocol.ErrPacket;
import io.netty.buffer.ByteBuf;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.session.SessionPin;

/** The executors of commands that take a few lines each. */
final class SimpleCommands {
    private SimpleCommands() {
    }

    /** COM_QUIT: the connection closes, without an answer. */
    record Quit(CommandScope scope) implements CommandExecutor {
        @Override
        public void execute(MySqlPacket packet) {
            packet.release();
            scope.close();
        }
    }

    /** COM_PING: answered by the proxy. */
    record Ping(CommandScope scope) implements CommandExecutor {
        @Override
        public void execute(MySqlPacket packet) {
            packet.release();
            scope.writeOk(1);
        }
    }

    /** COM_PROCESS_KILL: the connection with that id ends (Shardgate's id, not a backend's). */
    record ProcessKill(OwnStatements own) implements CommandExecutor {
        @Override
        public void execute(MySqlPacket packet) {
            ByteBuf payload = packet.payload();
            long target = payload.readableBytes() >= 5 ? payload.getUnsignedIntLE(payload.readerIndex() + 1) : -1;
            packet.release();
            own.kill(target, false);
        }
    }

    /** COM_RESET_CONNECTION: the session starts over; its backend connection goes back to the pool, reset. */
    record ResetConnection(CommandScope scope) implements CommandExecutor {
        @Override
        public void execute(MySqlPacket packet) {
            packet.release();
            ClientSession session = scope.session();
            if (scope.sharded() != null) {
                scope.sharded().close();
                scope.sharded(scope.context().sharding()
                        .map(deployment -> new ShardedCommands(scope.context(), deployment, session)).orElse(null));
            }
            scope.router().endSession(session, true);
            session.reset();
            scope.writeOk(1);
        }
    }

    /** COM_SET_OPTION: the multi-statement option lives on the backend connection, so the session keeps that one. */
    record SetOption(CommandScope scope) implements CommandExecutor {
        @Override
        public void execute(MySqlPacket packet) {
            scope.session().pins().add(SessionPin.STATEMENT_OPTION);
            scope.runner().forward(packet, Command.SET_OPTION);
        }
    }

    /** COM_INIT_DB, COM_FIELD_LIST, COM_STATISTICS, COM_DEBUG: forwarded as they are to the session's backend. */
    record Forwarded(CommandScope scope) implements CommandExecutor {
        @Override
        public void execute(MySqlPacket packet) {
            scope.runner().forward(packet, Command.of(packet.header()));
        }
    }

    /** Every other command (and an empty packet): ERR 1047, and the session goes on. */
    record Unsupported(CommandScope scope) implements CommandExecutor {
        @Override
        public void execute(MySqlPacket packet) {
            packet.release();
            scope.writeError(1, ErrPacket.of(ErrorCode.UNKNOWN_COMMAND));
        }
    }
}
