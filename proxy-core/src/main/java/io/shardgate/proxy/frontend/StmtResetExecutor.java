package io.shardgate.proxy.frontend;

import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.StatementPackets;
import io.shardgate.proxy.session.ClientStatement;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** COM_STMT_RESET: only a statement with a cursor or long data has anything to reset, on its backend or across shards. */
final class StmtResetExecutor implements CommandExecutor {
    private final CommandScope scope;

    StmtResetExecutor(CommandScope scope) {
        this.scope = scope;
    }

    @Override
    public void execute(MySqlPacket packet) {
        ClientSession session = scope.session();
        int id = StatementPackets.hasStatementId(packet.payload()) ? StatementPackets.statementId(packet.payload()) : 0;
        Optional<ClientStatement> found = session.statements().find(id);
        if (found.isEmpty()) {
            packet.release();
            scope.writeError(1, ErrPacket.of(ErrorCode.UNKNOWN_STATEMENT, Integer.toUnsignedLong(id), "mysqld_stmt_reset"));
            return;
        }
        ClientStatement statement = found.get();
        if (scope.sharded() != null) {
            CompletableFuture<Void> closed = scope.sharded().forget(statement.id());
            if (!closed.isDone()) {
                // Its cursor closes before the OK: the next statement may need the connections it read from.
                packet.release();
                ShardedRuns.run(scope, closed);
                return;
            }
        }
        if (session.backend() != null && (session.cursors().contains(statement.id()) || session.longData().contains(statement.id()))) {
            scope.runner().statement(packet, Command.STMT_RESET, statement, false);
            return;
        }
        packet.release();
        scope.writeOk(1);
    }
}
