package io.shardgate.proxy.frontend;

import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.BackendStatement;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.StatementPackets;
import io.shardgate.proxy.session.ClientStatement;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * COM_STMT_CLOSE: forgets the statement; the backend keeps it cached for other sessions, reset if
 * it had a cursor or long data. No response, not even for an unknown id.
 */
final class StmtCloseExecutor implements CommandExecutor {
    private final CommandScope scope;

    StmtCloseExecutor(CommandScope scope) {
        this.scope = scope;
    }

    @Override
    public void execute(MySqlPacket packet) {
        ClientSession session = scope.session();
        int id = StatementPackets.hasStatementId(packet.payload()) ? StatementPackets.statementId(packet.payload()) : 0;
        packet.release();
        Optional<ClientStatement> removed = session.statements().remove(id);
        if (removed.isEmpty()) {
            return;
        }
        if (scope.sharded() != null) {
            CompletableFuture<Void> closed = scope.sharded().forget(removed.get().id());
            if (!closed.isDone()) {
                // The next command waits until the cursor's shard results are closed.
                scope.busy();
                closed.whenComplete((ok, error) -> scope.onLoop(scope::afterCommand));
                return;
            }
        }
        int statementId = removed.get().id();
        BackendConnection backend = session.backend();
        boolean open = session.cursors().remove(statementId) | session.longData().remove(statementId);
        if (!open || backend == null) {
            return;
        }
        BackendStatement cached = backend.statements().get(removed.get().cacheKey());
        scope.busy();
        CompletableFuture<Void> reset = cached == null ? CompletableFuture.completedFuture(null) : backend.resetStatement(cached.id());
        reset.whenComplete((ok, error) -> scope.onLoop(() -> {
            if (error != null) {
                backend.markUntracked();
            }
            scope.afterCommand();
        }));
    }
}
