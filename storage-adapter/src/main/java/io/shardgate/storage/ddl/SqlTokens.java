package io.shardgate.storage.ddl;

import com.alibaba.druid.sql.dialect.mysql.parser.MySqlLexer;
import com.alibaba.druid.sql.parser.ParserException;
import com.alibaba.druid.sql.parser.Token;

import java.util.ArrayList;
import java.util.List;

/**
 * A statement split into tokens with Druid's MySQL lexer, so that text edits never touch a
 * string literal or a comment.
 */
final class SqlTokens {
    private SqlTokens() {
    }

    /** The tokens of {@code sql} up to the end; a lexer error is a {@link ParserException}. */
    static List<SqlToken> of(String sql) {
        PositionedLexer lexer = new PositionedLexer(sql);
        List<SqlToken> tokens = new ArrayList<>();
        int depth = 0;
        lexer.nextToken();
        while (lexer.token() != Token.EOF) {
            Token kind = lexer.token();
            if (kind == Token.ERROR) {
                throw new ParserException("cannot read the statement near offset " + lexer.start());
            }
            if (kind == Token.RPAREN) {
                depth = Math.max(0, depth - 1);
            }
            String value = switch (kind) {
                case IDENTIFIER, LITERAL_CHARS, LITERAL_NCHARS, LITERAL_ALIAS, LITERAL_HEX -> lexer.stringVal();
                case LITERAL_INT, LITERAL_FLOAT -> lexer.numberString();
                default -> kind.name == null ? kind.name() : kind.name;
            };
            tokens.add(new SqlToken(kind, value, lexer.start(), lexer.pos(), depth));
            if (kind == Token.LPAREN) {
                depth++;
            }
            lexer.nextToken();
        }
        return tokens;
    }

    /**
     * Where text appended to the statement belongs: just after its last token other than a
     * trailing semicolon, so that a trailing comment or semicolon stays after it.
     */
    static int endOfStatement(String sql, List<SqlToken> tokens) {
        for (int i = tokens.size() - 1; i >= 0; i--) {
            SqlToken token = tokens.get(i);
            if (token.kind() != Token.SEMI) {
                int end = token.end();
                while (end > token.start() && Character.isWhitespace(sql.charAt(end - 1))) {
                    end--;
                }
                return end;
            }
        }
        return sql.length();
    }

    /** Druid's lexer, with the start offset of the current token visible. */
    private static final class PositionedLexer extends MySqlLexer {
        PositionedLexer(String sql) {
            super(sql);
        }

        int start() {
            return startPos;
        }
    }
}
