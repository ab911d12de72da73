package io.shardgate.proxy.frontend;

import io.shardgate.router.classify.SqlLexer;
import io.shardgate.router.classify.TokenType;

/** The end of a statement Shardgate recognises by its tokens: an optional {@code ;}, then nothing but comments. */
final class StatementEnd {
    private StatementEnd() {
    }

    /** Advances {@code lexer} past the current token: true when only an optional semicolon and the end follow. */
    static boolean follows(SqlLexer lexer) {
        TokenType type = lexer.next();
        if (type == TokenType.SEMICOLON) {
            type = lexer.next();
        }
        return type == TokenType.END;
    }

    /** Whether {@code sql} starts (after comments) with the words {@code upperCaseWords}, in order. */
    static boolean startsWith(String sql, String... upperCaseWords) {
        SqlLexer lexer = new SqlLexer(sql);
        for (String word : upperCaseWords) {
            lexer.next();
            if (!lexer.isWord(word)) {
                return false;
            }
        }
        return true;
    }
}
