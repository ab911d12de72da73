package io.shardgate.replication.stream.history;

import com.alibaba.druid.sql.dialect.mysql.parser.MySqlLexer;
import com.alibaba.druid.sql.parser.ParserException;
import com.alibaba.druid.sql.parser.Token;

import java.util.Set;

/**
 * The table a {@code CREATE/ALTER TABLE} statement names, read with Druid's MySQL lexer for a
 * statement its parser cannot read ({@code ALTER TABLE t ADD COLUMN IF NOT EXISTS ...}).
 */
final class StatementTable {
    private static final Set<Token> VERBS = Set.of(Token.CREATE, Token.ALTER);
    private static final int MAX_MODIFIERS = 3;

    private StatementTable() {
    }

    /** {@code db.t} or {@code t} in {@code defaultSchema} after {@code <verb> [modifiers] TABLE [IF [NOT] EXISTS]}; null when it names none. */
    static TableName find(String sql, String defaultSchema) {
        try {
            MySqlLexer lexer = new MySqlLexer(sql);
            lexer.nextToken();
            if (!VERBS.contains(lexer.token())) {
                return null;
            }
            lexer.nextToken();
            for (int i = 0; i < MAX_MODIFIERS && lexer.token() == Token.IDENTIFIER; i++) {
                lexer.nextToken();
            }
            if (lexer.token() != Token.TABLE) {
                return null;
            }
            lexer.nextToken();
            if (lexer.token() == Token.IF) {
                lexer.nextToken();
                if (lexer.token() == Token.NOT) {
                    lexer.nextToken();
                }
                lexer.nextToken();
            }
            if (lexer.token() != Token.IDENTIFIER) {
                return null;
            }
            String first = DruidNames.unquote(lexer.stringVal());
            lexer.nextToken();
            if (lexer.token() == Token.DOT) {
                lexer.nextToken();
                if (lexer.token() != Token.IDENTIFIER) {
                    return null;
                }
                return new TableName(first, DruidNames.unquote(lexer.stringVal()));
            }
            return defaultSchema.isEmpty() ? null : new TableName(defaultSchema, first);
        } catch (ParserException e) {
            return null;
        }
    }
}
