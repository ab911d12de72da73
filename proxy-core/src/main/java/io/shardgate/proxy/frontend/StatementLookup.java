package io.shardgate.proxy.frontend;

import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.StatementPackets;
import io.shardgate.proxy.session.ClientStatement;

import java.util.Optional;

/**
 * The first steps of a command on a prepared statement (execute, bulk execute, fetch, long data):
 * the packet must carry a statement id, name a statement of the session, and hold what that
 * statement expects, all checked before anything of it reaches a backend, which must only see
 * packets it answers as expected.
 */
final class StatementLookup {
    private StatementLookup() {
    }

    /**
     * The statement {@code packet} is for; null when there is none (the packet is released and the
     * client has its ERR, except for long data, which has no response: the execute reports it).
     * Throws for a malformed packet (released first), which closes the connection.
     */
    static ClientStatement find(CommandScope scope, MySqlPacket packet, Command command) {
        ShardgateException malformed = StatementPacketCheck.statementId(packet.payload(), command);
        if (malformed != null) {
            packet.release();
            throw malformed;
        }
        ClientSession session = scope.session();
        int id = StatementPackets.statementId(packet.payload());
        Optional<ClientStatement> found = session.statements().find(id);
        if (found.isEmpty()) {
            packet.release();
            if (command != Command.STMT_SEND_LONG_DATA) {
                scope.writeError(1, ErrPacket.of(ErrorCode.UNKNOWN_STATEMENT, Integer.toUnsignedLong(id), commandName(command)));
            }
            return null;
        }
        ClientStatement statement = found.get();
        ShardedCommands sharded = scope.sharded();
        ShardgateException refused = StatementPacketCheck.check(packet.payload(), command, statement,
                session.longData().contains(statement.id()) || (sharded != null && sharded.hasLongData(statement.id())));
        if (refused != null) {
            packet.release();
            throw refused;
        }
        return statement;
    }

    /** Whether the statement runs across shards (a sharded deployment planned it) rather than on the session's backend. */
    static boolean planned(CommandScope scope, ClientStatement statement) {
        return scope.sharded() != null && ShardedCommands.planned(statement.classification());
    }

    static String commandName(Command command) {
        return switch (command) {
            case STMT_EXECUTE, STMT_BULK_EXECUTE -> "mysqld_stmt_execute";
            case STMT_FETCH -> "mysqld_stmt_fetch";
            case STMT_RESET -> "mysqld_stmt_reset";
            default -> "mysqld_stmt_send_long_data";
        };
    }
}
