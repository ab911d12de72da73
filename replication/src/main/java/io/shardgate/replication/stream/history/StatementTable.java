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

    /**
     * {@code CREATE OR REPLACE TABLE ...} (MariaDB's, which Druid does not read) as
     * {@code CREATE TABLE ...}: for the history both make the table anew. Null for any other statement.
     */
    static String withoutOrReplace(String sql) {
        try {
            MySqlLexer lexer = new MySqlLexer(sql);
            for (String word : new String[]{"CREATE", "OR", "REPLACE", "TABLE"}) {
                lexer.nextToken();
                if (lexer.token() == Token.EOF || !word.equalsIgnoreCase(lexer.stringVal())) {
                    return null;
                }
            }
            return "CREATE TABLE " + sql.substring(lexer.pos());
        } catch (ParserException | IndexOutOfBoundsException e) {
            return null;
        }
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
