package io.shardgate.proxy.frontend;

import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.router.classify.Classification;

/**
 * A transaction statement in a sharded deployment, as a query or a prepared statement: BEGIN,
 * COMMIT and ROLLBACK act on the session's shard branches; SET autocommit=1 commits them and then
 * runs as usual.
 */
final class ShardedTransactions {
    private ShardedTransactions() {
    }

    /**
     * Runs the transaction statement in {@code packet} on the session's shard branches, then
     * {@code forwardIt} when it must also run the usual way. False when it runs only the usual way
     * (the caller keeps the packet).
     */
    static boolean run(CommandScope scope, MySqlPacket packet, Classification classification, Runnable forwardIt) {
        ShardedCommands sharded = scope.sharded();
        ShardedCommands.TransactionAction action = ShardedCommands.transactionAction(classification, sharded.sharded().inTransaction());
        if (action == ShardedCommands.TransactionAction.FORWARD) {
            return false;
        }
        if (action == ShardedCommands.TransactionAction.COMMIT_THEN_FORWARD) {
            scope.busy();
            sharded.transaction(scope.session(), action).whenComplete((ok, error) -> scope.onLoop(() -> {
                if (error != null) {
                    packet.release();
                    scope.finishSharded(null, error);
                    return;
                }
                scope.session().status(sharded.sharded().status(ShardedCommands.autocommit(scope.session())));
                forwardIt.run();
            }));
            return true;
        }
        packet.release();
        scope.runSharded(sharded.transaction(scope.session(), action));
        return true;
    }
}
