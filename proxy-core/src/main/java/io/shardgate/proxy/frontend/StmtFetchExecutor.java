package io.shardgate.proxy.frontend;

import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.session.ClientStatement;
import io.shardgate.proxy.sharding.StatementOutcome;

import java.util.concurrent.CompletableFuture;

/** COM_STMT_FETCH: rows of an open cursor, from the backend that holds it, or from a planned statement's {@link ShardedCursors}. */
final class StmtFetchExecutor implements CommandExecutor {
    private final CommandScope scope;

    StmtFetchExecutor(CommandScope scope) {
        this.scope = scope;
    }

    @Override
    public void execute(MySqlPacket packet) {
        ClientStatement statement = StatementLookup.find(scope, packet, Command.STMT_FETCH);
        if (statement == null) {
            return;
        }
        if (StatementLookup.planned(scope, statement)) {
            long rows = packet.payload().getUnsignedIntLE(packet.payload().readerIndex() + 5);
            packet.release();
            CompletableFuture<StatementOutcome> fetched = scope.sharded().fetch(statement.id(), rows);
            if (fetched == null) {
                scope.writeError(1, ErrPacket.of(ErrorCode.NO_OPEN_CURSOR, statement.id()));
            } else {
                ShardedRuns.run(scope, fetched);
            }
            return;
        }
        if (!scope.session().cursors().contains(statement.id())) {
            packet.release();
            scope.writeError(1, ErrPacket.of(ErrorCode.NO_OPEN_CURSOR, statement.id()));
            return;
        }
        scope.session().trackingChange(null);
        scope.runner().statement(packet, Command.STMT_FETCH, statement, false);
    }
}
