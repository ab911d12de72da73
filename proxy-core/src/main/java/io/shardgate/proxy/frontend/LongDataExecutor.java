package io.shardgate.proxy.frontend;

import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.session.ClientStatement;

/**
 * COM_STMT_SEND_LONG_DATA: a parameter's value in pieces, to the backend that will execute the
 * statement, or kept until execute for a sharded one. It has no response: failures show at execute.
 */
final class LongDataExecutor implements CommandExecutor {
    private final CommandScope scope;

    LongDataExecutor(CommandScope scope) {
        this.scope = scope;
    }

    @Override
    public void execute(MySqlPacket packet) {
        ClientStatement statement = StatementLookup.find(scope, packet, Command.STMT_SEND_LONG_DATA);
        if (statement == null) {
            return;
        }
        if (StatementLookup.planned(scope, statement)) {
            try {
                scope.sharded().longData(statement.id(), packet.payload());
            } finally {
                packet.release();
            }
            return;
        }
        scope.session().longData().add(statement.id());
        scope.session().trackingChange(null);
        scope.runner().statement(packet, Command.STMT_SEND_LONG_DATA, statement,
                statement.classification().effects().readsLastInsertId());
    }
}
