package io.shardgate.proxy.frontend;

import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.LocalResultSet;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.router.classify.Classification;
import io.shardgate.router.classify.StatementClass;
import io.shardgate.router.classify.StatementClassifier;
import io.shardgate.router.classify.TemporaryTable;
import io.shardgate.router.classify.TransactionKind;

import io.netty.channel.ChannelPipeline;
import io.shardgate.proxy.protocol.Capabilities;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * COM_QUERY: Shardgate's own statements are answered here; SET TRANSACTION for the next
 * transaction waits for the session's next statement; DDL passes the {@link DdlGate} (refused, or
 * edited for the engines); in a sharded deployment a planned statement runs across shards; every
 * other statement goes to the backend the session's routing picks, rewritten only where the lexer
 * proves a rewrite is needed ({@link QueryRewriter}).
 */
final class QueryExecutor implements CommandExecutor {
    private final CommandScope scope;
    private final StatementClassifier classifier;
    private final DdlGate ddlGate;
    private final OwnStatements own;
    private final ProcessListStatements processList;
    private final DdlCost ddlCost;
    /** The multi-statement whose statements are running, one command each; null when none. */
    private MultiResultWriter batch;

    QueryExecutor(CommandScope scope, StatementClassifier classifier, DdlGate ddlGate, OwnStatements own) {
        this.scope = scope;
        this.classifier = classifier;
        this.ddlGate = ddlGate;
        this.own = own;
        this.processList = new ProcessListStatements(scope);
        this.ddlCost = new DdlCost(scope.context().config().ddl(), PoolTableSizes.of(scope.context()));
    }

    @Override
    public void execute(MySqlPacket packet) {
        if (batch != null && batch.take(packet)) {
            boolean skipped = batch.failed(); // an earlier statement of the batch failed: this one does not run
            batch = batch.done() ? null : batch;
            if (skipped) {
                packet.release();
                return;
            }
        }
        ClientSession session = scope.session();
        ShardedCommands sharded = scope.sharded();
        // Read in the client's character set, losslessly; the packet itself goes on unchanged unless rewritten.
        ClientCharset charset = session.clientCharset();
        String sql = StatementText.of(charset, packet);
        session.activity().statement(sql);
        session.digests().start(sql, session.noBackslashEscapes(), session.schema());
        if (own.answer(sql)) {
            packet.release();
            return;
        }
        Classification classification = classifier.classify(sql);
        if (processList.answer(packet, sql, classification)) {
            return;
        }
        if (sharded != null && classification.multiStatement() && ShardedCommands.planned(classification) && split(packet, sql)) {
            return;
        }
        LocalResultSet warnings = sharded == null ? null : sharded.warnings(sql, classification);
        if (warnings != null) {
            packet.release();
            scope.writeResult(warnings);
            return;
        }
        if (isNextTransactionOnly(classification, sql)) {
            // Runs right before the session's next statement, on whichever backend that goes to.
            packet.release();
            session.nextTransaction(sql, classification.transactionKind() == TransactionKind.SET_TRANSACTION_READ_ONLY);
            scope.writeOk(1);
            return;
        }
        DdlGate.Outcome ddl = null;
        if (classification.statementClass() == StatementClass.WRITE) {
            ddl = ddlGate.check(sql, session.allowBlockingDdl(), session.schema());
            if (ddl != null && ddl.bySize() != null && StatementText.exact(charset, packet, sql)) {
                bySize(packet, sql, classification, ddl);
                return;
            }
        }
        run(packet, sql, classification, ddl);
    }

    /**
     * A multi-statement in a sharded deployment, from a client that allows them: each statement runs in
     * turn as a command of its own through the one statement path, answered as one multi-result
     * response ({@link MultiResultWriter}). False (the packet untouched) when it cannot be split.
     */
    private boolean split(MySqlPacket packet, String sql) {
        ClientSession session = scope.session();
        ClientCharset charset = session.clientCharset();
        if (!Capabilities.has(session.capabilities(), Capabilities.CLIENT_MULTI_STATEMENTS)) {
            return false;
        }
        Optional<List<String>> statements = MultiStatements.split(sql, session.noBackslashEscapes());
        if (statements.isEmpty() || !StatementText.exact(charset, packet, sql)) {
            return false;
        }
        List<MySqlPacket> packets = new ArrayList<>();
        try {
            for (String statement : statements.get()) {
                packets.add(MySqlPacket.command(Command.QUERY, charset.encode(statement)));
            }
        } catch (ClientCharset.UnmappableTextException e) {
            packets.forEach(MySqlPacket::release);
            return false;
        }
        packet.release();
        batch = new MultiResultWriter(packets, Capabilities.has(session.capabilities(), Capabilities.CLIENT_DEPRECATE_EOF));
        ChannelPipeline pipeline = scope.ctx().pipeline();
        if (pipeline.get(MultiResultWriter.NAME) != null) {
            pipeline.remove(MultiResultWriter.NAME);
        }
        if (pipeline.get("encoder") != null) {
            pipeline.addBefore("encoder", MultiResultWriter.NAME, batch); // sees the encoded frames
        } else {
            pipeline.addFirst(MultiResultWriter.NAME, batch);
        }
        scope.runFirst(packets);
        scope.busy();
        scope.commandDone(); // the statements run now, in order
        return true;
    }

    /**
     * A DDL refused only because it blocks writes: it runs as allowed when its table is small (read
     * from the shards without blocking the loop), else the refusal says how large it is.
     */
    private void bySize(MySqlPacket packet, String sql, Classification classification, DdlGate.Outcome ddl) {
        scope.busy();
        ClientSession session = scope.session();
        ddlCost.check(sql, session.schema(), ddl.refusal(), ddl.bySize(), scope.ctx().channel().eventLoop())
                .whenComplete((refusal, error) -> scope.onLoop(() -> {
                    if (scope.session() != session) {
                        packet.release(); // the client is gone
                        scope.commandDone();
                    } else if (error != null || refusal != null) {
                        packet.release();
                        scope.writeError(1, error != null ? ddl.refusal() : refusal);
                        scope.commandDone();
                    } else {
                        // Exact text (checked before): what follows hands the statement on, never answers at once.
                        run(packet, sql, classification, ddl.bySize().allowed());
                    }
                }));
    }

    /** The statement after the DDL gate ({@code ddl} null when it did not check it): refused, edited, or sent on. */
    private void run(MySqlPacket packet, String sql, Classification classification, DdlGate.Outcome ddl) {
        ClientSession session = scope.session();
        ShardedCommands sharded = scope.sharded();
        ClientCharset charset = session.clientCharset();
        Map<String, String> ddlStatements = Map.of();
        if (classification.statementClass() == StatementClass.WRITE) {
            if (ddl != null) {
                ddlStatements = ddl.perShard();
            }
            if (ddl != null && ddl.refusal() != null) {
                packet.release();
                scope.writeError(1, ddl.refusal());
                return;
            }
            if (ddl != null && !ddl.sql().equals(sql)) {
                byte[] edited;
                try {
                    if (!StatementText.exact(charset, packet, sql)) {
                        throw ClientCharset.UnmappableTextException.invalid(charset);
                    }
                    // The validator's edits add ASCII clauses; the rest is the client's text, encoded back exactly.
                    edited = charset.encode(ddl.sql());
                } catch (ClientCharset.UnmappableTextException e) {
                    packet.release();
                    scope.writeError(1, scope.context().errors().translate(e).packet());
                    return;
                }
                packet.release();
                sql = ddl.sql();
                packet = MySqlPacket.command(Command.QUERY, edited);
            }
        }
        session.trackingChange(TrackingChange.of(sql));
        if (sharded != null && shardedQuery(packet, sql, classification, ddlStatements)) {
            return;
        }
        MySqlPacket rewritten = rewritten(packet, sql);
        if (rewritten == null) {
            return;
        }
        scope.runner().query(rewritten, classification, classification.effects().readsLastInsertId(),
                TemporaryTableNames.of(sql, classification.temporaryTable() != TemporaryTable.NONE),
                classification.effects().readsDiagnostics());
    }

    /**
     * A statement in a sharded deployment: planned and run across shards, or a transaction
     * statement for the session's shard branches. False when it runs the usual way instead (session
     * statements, on the first shard).
     */
    private boolean shardedQuery(MySqlPacket packet, String sql, Classification classification, Map<String, String> perShard) {
        ClientSession session = scope.session();
        if (classification.statementClass() == StatementClass.TRANSACTION) {
            return ShardedRuns.transaction(scope, packet, classification, () -> {
                MySqlPacket rewritten = rewritten(packet, sql);
                if (rewritten != null) {
                    scope.runner().query(rewritten, classification, false, null, false);
                } else {
                    scope.afterCommand();
                }
            });
        }
        if (!ShardedCommands.planned(classification)) {
            return false;
        }
        ClientCharset charset = session.clientCharset();
        boolean exact = StatementText.exact(charset, packet, sql);
        packet.release();
        if (!exact) {
            // Planned text goes to the shards encoded back: only text that round-trips exactly may be planned.
            scope.writeError(1, scope.context().errors().translate(ClientCharset.UnmappableTextException.invalid(charset)).packet());
            return true;
        }
        ShardedRuns.run(scope, scope.sharded().query(session, QueryRewriter.rewrite(sql, session.connectionId(),
                session.noBackslashEscapes()), classification, perShard));
        return true;
    }

    /**
     * The query packet with the rewrites its statement needs (the packet itself when none). Null
     * when it cannot be rewritten exactly: the packet is released and the client has its ERR.
     */
    private MySqlPacket rewritten(MySqlPacket packet, String sql) {
        ClientSession session = scope.session();
        try {
            return QueryRewriter.rewrite(packet, sql, session.clientCharset(), session.connectionId(), session.noBackslashEscapes());
        } catch (ClientCharset.UnmappableTextException e) {
            packet.release();
            scope.writeError(1, scope.context().errors().translate(e).packet());
            return null;
        }
    }

    /** SET TRANSACTION without SESSION or GLOBAL: it applies to the next transaction only. */
    static boolean isNextTransactionOnly(Classification classification, String sql) {
        TransactionKind kind = classification.transactionKind();
        return !classification.multiStatement() && (kind == TransactionKind.SET_TRANSACTION_READ_ONLY
                || kind == TransactionKind.SET_TRANSACTION_READ_WRITE || kind == TransactionKind.SET_TRANSACTION_ISOLATION)
                && StatementEnd.startsWith(sql, "SET", "TRANSACTION");
    }
}
