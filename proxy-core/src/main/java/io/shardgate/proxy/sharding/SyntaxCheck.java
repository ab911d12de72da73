package io.shardgate.proxy.sharding;

import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.error.BackendErrorException;
import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.router.classify.SqlLexer;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * What a statement the planner's SQL parser cannot read ({@link ErrorCode#UNPARSEABLE}) is answered with.
 * The parser reads less than MariaDB does, so the statement is checked against a shard first: prepared on
 * one of its primary connections (COM_STMT_PREPARE, then COM_STMT_CLOSE; never executed), as the client's
 * own text in the session's schema and settings. A syntax error there (1064, or 1149) is the answer, the
 * shard's ERR packet unchanged, as an unsharded server would have sent it. Anything else means the syntax is
 * valid and Shardgate cannot plan it, so the planner's refusal stands: the shard prepared it; or answered 1295
 * (MariaDB does not prepare this kind of statement, and it parses before it says so); or found another error
 * (an unknown table, which may well live on another shard); or could not be reached (the check is best effort).
 *
 * <p>{@code EXPLAIN SHARDGATE <statement>} is checked as the statement it explains.
 */
final class SyntaxCheck {
    private static final System.Logger LOG = System.getLogger(SyntaxCheck.class.getName());
    /** MariaDB's ER_PARSE_ERROR: "You have an error in your SQL syntax; ... near '...' at line n". */
    static final int PARSE_ERROR = 1064;
    /** MariaDB's ER_SYNTAX_ERROR, the older, position-less form of the same. */
    static final int SYNTAX_ERROR = 1149;

    private SyntaxCheck() {
    }

    /** Whether {@code planError} is a refusal this check may replace: the parser could not read the statement. */
    static boolean applies(Throwable planError) {
        return planError instanceof ShardgateException refusal && refusal.code() == ErrorCode.UNPARSEABLE;
    }

    /**
     * Fails with the shard's syntax error for {@code sql}, or else with {@code planError}. {@code connection} is
     * a primary connection in the session's schema and settings; it goes back to its pool after the check.
     */
    static <T> CompletableFuture<T> refusal(RuntimeException planError, CompletableFuture<BackendConnection> connection,
                                            String sql, ClientCharset charset) {
        CompletableFuture<T> result = new CompletableFuture<>();
        ShardedPrepare.Source source = new ShardedPrepare.Source(null, checked(sql), 0, null);
        connection.thenCompose(backend -> ShardedPrepare.prepareOn(backend, source, charset)).whenComplete((prepared, error) -> {
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            if (cause instanceof BackendErrorException shard && isSyntaxError(shard.packet().errno())) {
                result.completeExceptionally(shard);
                return;
            }
            if (cause != null && !(cause instanceof BackendErrorException)) {
                LOG.log(System.Logger.Level.DEBUG, "could not check a statement the parser cannot read on a shard: " + cause);
            }
            result.completeExceptionally(planError);
        });
        return result;
    }

    static boolean isSyntaxError(int errno) {
        return errno == PARSE_ERROR || errno == SYNTAX_ERROR;
    }

    /** The statement whose syntax is checked: {@code sql}, or the statement an EXPLAIN SHARDGATE explains. */
    static String checked(String sql) {
        SqlLexer lexer = new SqlLexer(sql);
        lexer.next();
        if (!lexer.isWord("EXPLAIN")) {
            return sql;
        }
        lexer.next();
        if (!lexer.isWord("SHARDGATE")) {
            return sql;
        }
        lexer.next();
        return sql.substring(lexer.start());
    }
}
