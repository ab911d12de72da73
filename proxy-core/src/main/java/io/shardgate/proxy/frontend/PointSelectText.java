package io.shardgate.proxy.frontend;

import io.shardgate.router.classify.SqlLexer;
import io.shardgate.router.classify.TokenType;
import io.shardgate.router.value.SqlValue;

/**
 * A point select sent as text, {@code SELECT a, b FROM t WHERE k = 123}, read as the prepared
 * statement {@code SELECT a, b FROM t WHERE k = ?} with the parameter 123: every id then shares one
 * cached plan instead of planning (a Druid parse) each new text, as Vitess' plan cache does with
 * normalised statements. Only this strict shape is taken, recognised by its tokens: a list of plain
 * column names or {@code *}, one unqualified table, one equality of a column with a decimal
 * integer written as the server prints it (no sign, no leading zero, at most 18 digits), an optional
 * {@code ;}, and no comments. The shards get the same text back: the parameter is inlined as the
 * same digits ({@code SqlParameters}), and routing by the parameter hashes the same integer.
 *
 * @param sql        the statement with its literal replaced by {@code ?}
 * @param parameter  the literal's value
 */
record PointSelectText(String sql, SqlValue parameter) {
    private static final int MAX_DIGITS = 18;

    /** The statement as a one-parameter point select, or null when {@code sql} has another shape. */
    static PointSelectText of(String sql) {
        SqlLexer lexer = new SqlLexer(sql);
        lexer.next();
        if (!lexer.isWord("SELECT")) {
            return null;
        }
        lexer.next();
        if (lexer.isOperator('*')) {
            lexer.next();
        } else {
            while (true) {
                if (!name(lexer)) {
                    return null;
                }
                lexer.next();
                if (!lexer.isOperator(',')) {
                    break;
                }
                lexer.next();
            }
        }
        if (!lexer.isWord("FROM")) {
            return null;
        }
        lexer.next();
        if (!name(lexer)) {
            return null;
        }
        lexer.next();
        if (!lexer.isWord("WHERE")) {
            return null;
        }
        lexer.next();
        if (!name(lexer)) {
            return null;
        }
        lexer.next();
        if (!lexer.isOperator('=')) {
            return null;
        }
        if (lexer.next() != TokenType.NUMBER || !canonicalInteger(sql, lexer.start(), lexer.end())) {
            return null;
        }
        int start = lexer.start();
        int end = lexer.end();
        if (!StatementEnd.follows(lexer)) {
            return null;
        }
        // Checked last, on a statement now known to be short: comments, hints and executable comments keep their own plan.
        if (sql.indexOf('/') >= 0 || sql.indexOf('#') >= 0 || sql.indexOf("--") >= 0) {
            return null;
        }
        return new PointSelectText(sql.substring(0, start) + "?" + sql.substring(end),
                SqlValue.ofLong(Long.parseLong(sql, start, end, 10)));
    }

    /** A column or table name: a word that is no keyword of this shape, or a quoted identifier. */
    private static boolean name(SqlLexer lexer) {
        if (lexer.type() == TokenType.QUOTED_IDENTIFIER) {
            return true;
        }
        return lexer.type() == TokenType.WORD && !lexer.isWord("FROM") && !lexer.isWord("WHERE") && !lexer.isWord("SELECT");
    }

    private static boolean canonicalInteger(String sql, int start, int end) {
        if (end - start > MAX_DIGITS || (end - start > 1 && sql.charAt(start) == '0')) {
            return false;
        }
        for (int i = start; i < end; i++) {
            char c = sql.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }
}
