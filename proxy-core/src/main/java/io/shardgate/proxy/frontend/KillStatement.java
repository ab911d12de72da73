package io.shardgate.proxy.frontend;

import io.shardgate.router.classify.SqlLexer;
import io.shardgate.router.classify.TokenType;

import java.util.Optional;

/**
 * {@code KILL [CONNECTION | QUERY] n}, which Shardgate answers itself: n is a Shardgate connection
 * id. Recognised by its tokens, so comments may stand anywhere and a string that spells a KILL is
 * not one.
 */
record KillStatement(long connectionId, boolean queryOnly) {
    private static final int MAX_DIGITS = 18;

    static Optional<KillStatement> parse(String sql) {
        SqlLexer lexer = new SqlLexer(sql);
        lexer.next();
        if (!lexer.isWord("KILL")) {
            return Optional.empty();
        }
        TokenType type = lexer.next();
        boolean queryOnly = false;
        if (lexer.isWord("CONNECTION")) {
            type = lexer.next();
        } else if (lexer.isWord("QUERY")) {
            queryOnly = true;
            type = lexer.next();
        }
        if (type != TokenType.NUMBER) {
            return Optional.empty();
        }
        String digits = lexer.text();
        if (digits.length() > MAX_DIGITS || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Optional.empty();
        }
        if (!StatementEnd.follows(lexer)) {
            return Optional.empty();
        }
        return Optional.of(new KillStatement(Long.parseLong(digits), queryOnly));
    }
}
