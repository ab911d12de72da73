package io.shardgate.proxy.frontend;

import io.netty.buffer.ByteBuf;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.protocol.ExecuteParameters;
import io.shardgate.proxy.protocol.LocalResultSet;
import io.shardgate.proxy.session.ClientStatement;
import io.shardgate.proxy.execution.ClientChannel;
import io.shardgate.proxy.execution.StatementRequest;
import io.shardgate.proxy.sharding.ShardedDeployment;
import io.shardgate.proxy.sharding.ShardedPrepare;
import io.shardgate.proxy.sharding.ShardWarnings;
import io.shardgate.proxy.sharding.ShardedSession;
import io.shardgate.proxy.sharding.StatementOutcome;
import io.shardgate.router.classify.Classification;
import io.shardgate.router.classify.ReadWriteDecision;
import io.shardgate.router.classify.SqlLexer;
import io.shardgate.router.classify.TokenType;
import io.shardgate.router.classify.StatementClass;
import io.shardgate.router.classify.Target;
import io.shardgate.router.value.SqlValue;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A client session's commands in a sharded deployment, turned into {@link ShardedSession} calls:
 * statements are planned and run across shards; BEGIN, COMMIT and ROLLBACK act on the session's
 * shard branches; prepared statements execute with their parameters decoded here (the shards get
 * them as literals) and answer in the binary protocol; long data waits here for its execute.
 * Session statements (SET, USE) are not handled here: they run on the first shard, whose session
 * tracking updates the session's settings, which every shard connection then follows.
 */
final class ShardedCommands {
    /** What a transaction statement asks of the sharded session. */
    enum TransactionAction { BEGIN, BEGIN_READ_ONLY, COMMIT, ROLLBACK, COMMIT_THEN_FORWARD, UNSUPPORTED, FORWARD }

    private final FrontendContext context;
    private final ShardedSession sharded;
    private final ClientChannel out;
    private final Map<Integer, Map<Integer, byte[]>> longData = new HashMap<>();
    private final ShardedCursors cursors = new ShardedCursors();

    ShardedCommands(FrontendContext context, ShardedDeployment deployment, ClientSession session) {
        this.context = context;
        this.sharded = deployment.newSession(session.shardPositions());
        this.out = new ClientChannel(session.channel(), session.capabilities());
        session.sharded(sharded);
    }

    /** The client connection's one writer, shared with the commands forwarded to a backend ({@link ForwardingRunner}). */
    ClientChannel out() {
        return out;
    }

    ShardedSession sharded() {
        return sharded;
    }

    /** Whether {@code classification}'s statement is planned (not a session statement, which runs on the first shard). */
    static boolean planned(Classification classification) {
        StatementClass kind = classification.statementClass();
        return kind != StatementClass.SESSION && kind != StatementClass.TRANSACTION;
    }

    static TransactionAction transactionAction(Classification classification, boolean inTransaction) {
        return switch (classification.transactionKind()) {
            case BEGIN -> TransactionAction.BEGIN;
            case BEGIN_READ_ONLY -> TransactionAction.BEGIN_READ_ONLY;
            case COMMIT -> TransactionAction.COMMIT;
            case ROLLBACK -> TransactionAction.ROLLBACK;
            case AUTOCOMMIT_ON -> inTransaction ? TransactionAction.COMMIT_THEN_FORWARD : TransactionAction.FORWARD;
            case SAVEPOINT, ROLLBACK_TO_SAVEPOINT, RELEASE_SAVEPOINT, XA -> TransactionAction.UNSUPPORTED;
            default -> TransactionAction.FORWARD;
        };
    }

    CompletableFuture<Void> transaction(ClientSession session, TransactionAction action) {
        // Its OK or ERR is the first packet of a new response (an ERR numbered after the previous
        // statement's packets reads as a malformed packet to the client).
        out.restart();
        return switch (action) {
            case BEGIN, BEGIN_READ_ONLY -> {
                // SET TRANSACTION without SESSION applies to this transaction: each branch runs it first.
                String setTransaction = session.nextTransaction();
                boolean readOnly = action == TransactionAction.BEGIN_READ_ONLY || session.nextTransactionReadOnly();
                session.nextTransaction(null, false);
                yield sharded.begin(readOnly, setTransaction);
            }
            case COMMIT, COMMIT_THEN_FORWARD -> sharded.commit();
            case ROLLBACK -> sharded.rollback();
            default -> CompletableFuture.failedFuture(ErrorCode.UNSUPPORTED.exception(
                    "savepoints and client XA statements in a sharded deployment"));
        };
    }

    /**
     * SHOW WARNINGS, SHOW ERRORS, SHOW COUNT(*) WARNINGS or {@code @@warning_count} right after a sharded statement
     * the shards warned about: answered here from every shard's warnings, each message prefixed with its shard (the
     * connections that ran the statement are back in their pools), as one server would ({@link WarningsStatement}).
     * Null when {@code sql} is another statement or there are none; a statement that does not read diagnostics
     * forgets them.
     */
    LocalResultSet warnings(String sql, Classification classification) {
        if (!classification.effects().readsDiagnostics()) {
            sharded.forgetWarnings();
            return null;
        }
        Optional<WarningsStatement> statement = WarningsStatement.parse(sql);
        ShardWarnings last = sharded.lastWarnings();
        return statement.isEmpty() || last.isEmpty() ? null : statement.get().answer(last);
    }

    /** {@code SHOW WARNINGS} alone (comments and a semicolon aside), read by its tokens. */
    static boolean isShowWarnings(String sql) {
        return WarningsStatement.parse(sql).filter(w -> w.kind() == WarningsStatement.Kind.WARNINGS && w.limit() == Long.MAX_VALUE)
                .isPresent();
    }

    /**
     * A text statement. A point select ({@link PointSelectText}) runs as its prepared form with its
     * literal as the parameter, so that every id shares one cached plan, when that form plans to one
     * route; any other statement, or a point select whose prepared form plans otherwise, runs as it is.
     */
    CompletableFuture<StatementOutcome> query(ClientSession session, String sql, Classification classification,
                                              Map<String, String> perShard) {
        out.restart();
        if (classification.effects().locksTables() || classification.effects().unlocksTables()) {
            // LOCK / UNLOCK TABLES: the session's lock connections on the shards; the OK is written when it is done.
            return sharded.tableLocks(request(session, sql, classification, List.of(), false, perShard),
                    classification.effects().locksTables()).thenApply(ok -> null);
        }
        PointSelectText point = perShard.isEmpty() ? PointSelectText.of(sql) : null;
        if (point != null) {
            CompletableFuture<StatementOutcome> routed = sharded.executeRoute(
                    request(session, point.sql(), classification, List.of(point.parameter()), false, perShard), out, context.metrics());
            if (routed != null) {
                return routed;
            }
        }
        return sharded.execute(request(session, sql, classification, List.of(), false, perShard), out, context.metrics());
    }

    /** COM_STMT_PREPARE of a planned statement: its plan and metadata ({@link ShardedSession#prepare}). */
    CompletableFuture<ShardedPrepare.Metadata> prepare(ClientSession session, String sql, Classification classification) {
        return sharded.prepare(request(session, sql, classification, List.of(), true, Map.of()));
    }

    /**
     * COM_STMT_EXECUTE of {@code statement}; {@code payload} is the client's packet payload. The statement's open
     * cursor closes first; {@code cursor}: its result stays open for COM_STMT_FETCH ({@link ShardedCursors}).
     */
    CompletableFuture<StatementOutcome> execute(ClientSession session, ClientStatement statement, ByteBuf payload,
                                                Map<String, String> perShard, boolean cursor) {
        out.restart();
        List<SqlValue> parameters;
        try {
            Map<Integer, byte[]> sent = longData.remove(statement.id());
            ExecuteParameters decoded = ExecuteParameters.decode(payload, statement.parameters(), statement.parameterTypes(),
                    sent == null ? Map.of() : sent, session.clientCharset());
            if (decoded.types() != null) {
                statement.parameterTypes(decoded.types());
            }
            parameters = decoded.values();
        } catch (io.shardgate.proxy.protocol.MalformedPacketException e) {
            // StatementPacketCheck let the packet's shape through, so this is a value the proxy cannot read
            // (a DECIMAL that is no number, say): the execute's arguments are wrong, the session stays usable.
            return CompletableFuture.failedFuture(io.shardgate.errors.ErrorCode.WRONG_ARGUMENTS.exception(
                    "mysqld_stmt_execute (" + e.getMessage() + ")"));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        StatementRequest request = request(session, statement.sql(), statement.classification(), parameters, true, perShard);
        CompletableFuture<Void> closed = cursors.close(statement.id());
        if (cursor) {
            return closed.thenCompose(ok -> cursors.open(sharded, statement.id(), request, out));
        }
        // Back on the connection's loop, where a one-shard statement is relayed.
        return closed.isDone() ? sharded.execute(request, out, context.metrics())
                : closed.thenComposeAsync(ok -> sharded.execute(request, out, context.metrics()), session.channel().eventLoop());
    }

    /** COM_STMT_FETCH of up to {@code rows} rows of the statement's cursor; null when it has none open. */
    CompletableFuture<StatementOutcome> fetch(int statementId, long rows) {
        out.restart();
        return cursors.fetch(statementId, rows, out);
    }

    /** COM_STMT_SEND_LONG_DATA: kept until the statement's next execute. */
    void longData(int statementId, ByteBuf payload) {
        int at = payload.readerIndex() + 5;
        if (payload.writerIndex() < at + 2) {
            return;
        }
        int parameter = payload.getUnsignedShortLE(at);
        byte[] chunk = new byte[payload.writerIndex() - at - 2];
        payload.getBytes(at + 2, chunk);
        longData.computeIfAbsent(statementId, id -> new HashMap<>()).merge(parameter, chunk, ShardedCommands::concat);
    }

    /** Whether COM_STMT_SEND_LONG_DATA sent values for the statement that wait for its next execute. */
    boolean hasLongData(int statementId) {
        return longData.containsKey(statementId);
    }

    /** COM_STMT_RESET or COM_STMT_CLOSE: long data and the cursor go; completes once the cursor's shard results are closed. */
    CompletableFuture<Void> forget(int statementId) {
        longData.remove(statementId);
        return cursors.close(statementId);
    }

    /** The session ends: cursors close and an open transaction is rolled back. */
    void close() {
        cursors.closeAll();
        longData.clear();
        sharded.close();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] joined = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        return joined;
    }

    private StatementRequest request(ClientSession session, String sql, Classification classification, List<SqlValue> parameters,
                                     boolean binary, Map<String, String> perShard) {
        boolean write = classification.statementClass() == StatementClass.WRITE;
        boolean replica = ReadWriteDecision.decide(classification, CommandRouter.routingState(session), classification.hints()).target()
                == Target.REPLICA;
        long budget = classification.hints().maxLagMs().orElse(session.maxLagMs().orElse(context.topology().routingConfig().maxReplicaLagMs()));
        java.util.EnumSet<StatementRequest.Option> options = java.util.EnumSet.noneOf(StatementRequest.Option.class);
        if (classification.effects().readsLastInsertId()) {
            options.add(StatementRequest.Option.NEEDS_LAST_INSERT_ID);
        }
        if (binary) {
            options.add(StatementRequest.Option.BINARY);
        }
        if (write) {
            options.add(StatementRequest.Option.WRITE);
            if (isDdl(sql)) {
                options.add(StatementRequest.Option.DDL);
            }
        }
        if (replica) {
            options.add(StatementRequest.Option.REPLICA_ALLOWED);
        }
        if (autocommit(session)) {
            options.add(StatementRequest.Option.AUTOCOMMIT);
        }
        StatementRequest.Session seen = new StatementRequest.Session(session.schema(), session.settings(), session.lastInsertId(),
                session.channel().eventLoop(), session.capabilities(), session.clientCharset());
        return new StatementRequest(sql, parameters, options, seen, budget, perShard);
    }

    static boolean autocommit(ClientSession session) {
        String value = session.settings().system().values().get("autocommit");
        return value == null || !(value.equals("OFF") || value.equals("0"));
    }

    private static boolean isDdl(String sql) {
        String verb = firstWord(sql);
        return verb.equals("CREATE") || verb.equals("ALTER") || verb.equals("DROP") || verb.equals("TRUNCATE") || verb.equals("RENAME");
    }

    /** The statement's first word (after comments and opening parentheses), upper case; empty when it starts otherwise. */
    private static String firstWord(String sql) {
        SqlLexer lexer = new SqlLexer(sql);
        TokenType type = lexer.next();
        while (lexer.isOperator('(')) {
            type = lexer.next();
        }
        return type == TokenType.WORD ? lexer.text().toUpperCase(Locale.ROOT) : "";
    }
}
