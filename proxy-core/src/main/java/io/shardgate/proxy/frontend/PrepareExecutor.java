package io.shardgate.proxy.frontend;

import io.shardgate.proxy.protocol.ErrPacket;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.sharding.ShardedPrepare;
import io.shardgate.router.classify.Classification;
import io.shardgate.router.classify.StatementClass;
import io.shardgate.router.classify.StatementClassifier;

import java.util.concurrent.CompletionException;

/**
 * COM_STMT_PREPARE: prepared on the backend that serves it now, under an id Shardgate owns; in a
 * sharded deployment a planned statement is described by a shard its plan routes to. A prepared
 * DDL statement is checked against the engines at PREPARE, as a text one is.
 */
final class PrepareExecutor implements CommandExecutor {
    private final CommandScope scope;
    private final StatementClassifier classifier;
    private final DdlGate ddlGate;

    PrepareExecutor(CommandScope scope, StatementClassifier classifier, DdlGate ddlGate) {
        this.scope = scope;
        this.classifier = classifier;
        this.ddlGate = ddlGate;
    }

    @Override
    public void execute(MySqlPacket packet) {
        ClientSession session = scope.session();
        if (session.statements().isFull()) {
            packet.release();
            scope.writeError(1, ErrPacket.of(ErrorCode.TOO_MANY_PREPARED_STATEMENTS, session.statements().limit()));
            return;
        }
        ClientCharset charset = session.clientCharset();
        String sql = StatementText.of(charset, packet);
        Classification prepared = classifier.classify(sql);
        if (ProcessListQuery.reads(sql, session.noBackslashEscapes(), session.schema())) {
            // Prepared on a backend, it would list that backend's threads, not Shardgate's sessions.
            packet.release();
            scope.writeError(1, ErrPacket.of(ErrorCode.UNSUPPORTED, "the process list in a prepared statement (send it as a text query)"));
            return;
        }
        if (prepared.statementClass() == StatementClass.WRITE) {
            DdlGate.Outcome ddl = ddlGate.check(sql, session.allowBlockingDdl(), session.schema());
            if (ddl != null && ddl.refusal() != null) {
                packet.release();
                scope.writeError(1, ddl.refusal());
                return;
            }
        }
        ShardedCommands sharded = scope.sharded();
        if (sharded != null && ShardedCommands.planned(prepared)) {
            if (!StatementText.exact(charset, packet, sql)) {
                packet.release();
                scope.writeError(1, scope.context().errors().translate(ClientCharset.UnmappableTextException.invalid(charset)).packet());
                return;
            }
            // Planned, then described by a shard the plan routes to (the first shard may not hold the table).
            packet.release();
            int id = session.statements().reserveId();
            scope.busy();
            sharded.prepare(session, sql, prepared).whenComplete((metadata, error) -> scope.onLoop(() -> shardedPrepared(id, sql,
                    prepared, metadata, error)));
            return;
        }
        int id = session.statements().reserveId();
        scope.runner().prepare(packet, classifier.classify(sql), id, sql);
    }

    private void shardedPrepared(int id, String sql, Classification classification, ShardedPrepare.Metadata metadata,
                                 Throwable error) {
        ClientSession session = scope.session();
        if (session == null) {
            scope.commandDone();
            return;
        }
        if (error != null) {
            scope.runner().prepareFailed(classification, id, sql,
                    error instanceof CompletionException && error.getCause() != null ? error.getCause() : error);
            return;
        }
        session.statements().add(id, sql, session.schema(), metadata.parameters(), classification);
        ChannelHandlerContext ctx = scope.ctx();
        int sequence = 1;
        for (ByteBuf payload : metadata.payloads(id, Capabilities.has(session.capabilities(), Capabilities.CLIENT_DEPRECATE_EOF),
                session.status(), ctx.alloc())) {
            ctx.write(new MySqlPacket(sequence++, payload));
        }
        ctx.flush();
        scope.afterCommand();
    }
}
