package io.shardgate.router.planner;

import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import io.shardgate.router.classify.SqlLexer;
import io.shardgate.router.classify.TokenType;

import java.util.Locale;

/**
 * The planner's refusal of a statement its SQL parser (Druid) cannot read: {@link ErrorCode#UNPARSEABLE},
 * naming the statement by its first word and quoting its start, as MariaDB's syntax errors quote the text
 * "near" theirs. Never the parser's own message: its positions, token types and exception class names mean
 * nothing to the user (and Druid's positions are often not where the statement goes wrong).
 *
 * <p>The parser reads less than MariaDB does, so such a statement may still be valid SQL; proxy-core checks it
 * against a shard before answering with this refusal, and a real syntax error gets that shard's own error.
 */
final class Unparseable {
    /** As much of the statement as the message quotes; MariaDB's "near '...'" quotes up to 80 characters too. */
    static final int EXCERPT_CHARS = 80;

    private Unparseable() {
    }

    /** The refusal of {@code sql}, which the parser cannot read. */
    static ShardgateException refusal(String sql) {
        SqlLexer lexer = new SqlLexer(sql);
        TokenType type = lexer.next();
        int from = lexer.start();
        while (lexer.isOperator('(')) {
            type = lexer.next();
        }
        String kind = type == TokenType.WORD ? lexer.text().toUpperCase(Locale.ROOT) : "statement";
        return ErrorCode.UNPARSEABLE.exception(kind, excerpt(sql.substring(from).strip()));
    }

    /** {@code text} cut to {@link #EXCERPT_CHARS} characters (never inside a surrogate pair), marked with "..." when cut. */
    static String excerpt(String text) {
        if (text.length() <= EXCERPT_CHARS) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(EXCERPT_CHARS - 1)) ? EXCERPT_CHARS - 1 : EXCERPT_CHARS;
        return text.substring(0, end) + "...";
    }
}
