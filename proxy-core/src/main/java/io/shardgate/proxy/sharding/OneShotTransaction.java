package io.shardgate.proxy.sharding;

import io.shardgate.router.classify.SqlLexer;

/**
 * A one-shot {@code SET TRANSACTION} (isolation level or access mode for the next transaction only) in a
 * sharded session: MariaDB's XA COMMIT does not end it, nor does a reset of the connection, so each branch
 * takes it as a session setting instead and is reset afterwards.
 */
final class OneShotTransaction {
    private OneShotTransaction() {
    }

    /** {@code SET TRANSACTION ...} as {@code SET SESSION TRANSACTION ...}, read by its tokens; other text as it is. */
    static String sessionScoped(String setTransaction) {
        SqlLexer lexer = new SqlLexer(setTransaction);
        lexer.next();
        if (!lexer.isWord("SET")) {
            return setTransaction;
        }
        lexer.next();
        if (!lexer.isWord("TRANSACTION")) {
            return setTransaction;
        }
        return setTransaction.substring(0, lexer.start()) + "SESSION " + setTransaction.substring(lexer.start());
    }
}
