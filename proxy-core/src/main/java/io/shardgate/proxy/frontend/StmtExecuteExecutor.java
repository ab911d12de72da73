package io.shardgate.proxy.frontend;

import io.shardgate.proxy.digest.DigestRecorder;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.StatementPackets;
import io.shardgate.proxy.session.ClientStatement;
import io.shardgate.router.classify.StatementClass;

import java.util.Map;

/**
 * COM_STMT_EXECUTE and COM_STMT_BULK_EXECUTE: on the session's backend (the statement prepared
 * there first if need be), or across shards when a sharded deployment planned it. A DDL statement
 * is checked again at execute: the session's allowance may have changed since PREPARE.
 */
final class StmtExecuteExecutor implements CommandExecutor {
    private final CommandScope scope;
    private final Command command;
    private final DdlGate ddlGate;

    StmtExecuteExecutor(CommandScope scope, Command command, DdlGate ddlGate) {
        this.scope = scope;
        this.command = command;
        this.ddlGate = ddlGate;
    }

    @Override
    public void execute(MySqlPacket packet) {
        ClientStatement statement = StatementLookup.find(scope, packet, command);
        if (statement == null) {
            return;
        }
        scope.session().activity().statement(statement.sql());
        DigestRecorder digests = scope.session().digests();
        if (digests.enabled()) {
            boolean noBackslashEscapes = scope.session().noBackslashEscapes();
            if (!statement.hasDigestHash(noBackslashEscapes)) {
                statement.digestHash(noBackslashEscapes, digests.hash(statement.sql(), noBackslashEscapes));
            }
            digests.start(statement.sql(), statement.digestHash(), noBackslashEscapes, scope.session().schema());
        }
        if (StatementLookup.planned(scope, statement)) {
            try {
                sharded(packet, statement);
            } finally {
                packet.release();
            }
            return;
        }
        if (scope.sharded() != null && command == Command.STMT_EXECUTE
                && statement.classification().statementClass() == StatementClass.TRANSACTION
                && ShardedRuns.transaction(scope, packet, statement.classification(),
                        () -> scope.runner().statement(packet, command, statement, false))) {
            return;
        }
        scope.session().trackingChange(command == Command.STMT_EXECUTE ? TrackingChange.of(statement.sql()) : null);
        scope.runner().statement(packet, command, statement, statement.classification().effects().readsLastInsertId());
    }

    private void sharded(MySqlPacket packet, ClientStatement statement) {
        if (command != Command.STMT_EXECUTE) {
            scope.writeError(1, ErrPacket.of(ErrorCode.UNSUPPORTED, StatementLookup.commandName(command) + " in a sharded deployment"));
            return;
        }
        Map<String, String> perShard = Map.of();
        if (statement.classification().statementClass() == StatementClass.WRITE) {
            DdlGate.Outcome ddl = ddlGate.check(statement.sql(), scope.session().allowBlockingDdl(), scope.session().schema());
            if (ddl != null && ddl.refusal() != null) {
                scope.writeError(1, ddl.refusal());
                return;
            }
            perShard = ddl == null ? perShard : ddl.perShard();
        }
        boolean cursor = ShardedCursors.opens(StatementPackets.executeFlags(packet.payload()), statement.classification().statementClass());
        ShardedRuns.run(scope, scope.sharded().execute(scope.session(), statement, packet.payload(), perShard, cursor));
    }
}
