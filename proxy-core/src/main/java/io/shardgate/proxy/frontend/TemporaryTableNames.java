package io.shardgate.proxy.frontend;

import io.shardgate.router.classify.SqlLexer;
import io.shardgate.router.classify.TokenType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The table names a statement creates as temporary tables or drops, so a session stays on its
 * connection exactly while it has temporary tables. Names are compared without schema and case:
 * a DROP of {@code t} in another schema unpins a session whose {@code t} still exists, the only
 * imprecision, and it errs toward keeping the connection only for the other table's lifetime.
 * Only statements the classifier marked as touching temporary tables, or starting with DROP, reach
 * here. The statement is read by its tokens (comments may stand anywhere).
 */
final class TemporaryTableNames {
    private TemporaryTableNames() {
    }

    /** What one statement does to the session's temporary tables. */
    record Change(String created, List<String> dropped) {
    }

    /** The change {@code sql} makes, or null when it creates and drops nothing. Cheap for other statements. */
    static Change of(String sql, boolean temporaryCreateOrDrop) {
        if (!temporaryCreateOrDrop && !SqlText.containsIgnoreCase(sql, "drop")) {
            return null;
        }
        String created = created(sql);
        List<String> dropped = dropped(sql);
        return created == null && dropped.isEmpty() ? null : new Change(created, dropped);
    }

    /** The temporary table a CREATE TEMPORARY TABLE creates; null when the statement is not one. */
    static String created(String sql) {
        SqlLexer lexer = new SqlLexer(sql);
        lexer.next();
        if (!lexer.isWord("CREATE")) {
            return null;
        }
        lexer.next();
        if (lexer.isWord("OR")) {
            lexer.next();
            if (!lexer.isWord("REPLACE")) {
                return null;
            }
            lexer.next();
        }
        if (!lexer.isWord("TEMPORARY")) {
            return null;
        }
        lexer.next();
        if (!lexer.isWord("TABLE")) {
            return null;
        }
        lexer.next();
        if (lexer.isWord("IF")) {
            lexer.next();
            if (!lexer.isWord("NOT")) {
                return null;
            }
            lexer.next();
            if (!lexer.isWord("EXISTS")) {
                return null;
            }
            lexer.next();
        }
        return tableName(lexer);
    }

    /** The tables a DROP [TEMPORARY] TABLE drops; empty when the statement is not one. */
    static List<String> dropped(String sql) {
        SqlLexer lexer = new SqlLexer(sql);
        lexer.next();
        if (!lexer.isWord("DROP")) {
            return List.of();
        }
        lexer.next();
        if (lexer.isWord("TEMPORARY")) {
            lexer.next();
        }
        if (!lexer.isWord("TABLE") && !lexer.isWord("TABLES")) {
            return List.of();
        }
        lexer.next();
        if (lexer.isWord("IF")) {
            lexer.next();
            if (!lexer.isWord("EXISTS")) {
                return List.of();
            }
            lexer.next();
        }
        List<String> names = new ArrayList<>();
        while (true) {
            String name = tableName(lexer);
            if (name == null) {
                return names;
            }
            names.add(name);
            if (!lexer.isOperator(',')) {
                return names;
            }
            lexer.next();
        }
    }

    /**
     * The table part of {@code [schema.]table} at the lexer's current token, unquoted and lower
     * case; leaves the lexer on the token after the name. Null when no name is there.
     */
    private static String tableName(SqlLexer lexer) {
        String name = identifier(lexer);
        if (name == null) {
            return null;
        }
        lexer.next();
        if (lexer.isOperator('.')) {
            lexer.next();
            String table = identifier(lexer);
            if (table == null) {
                return null;
            }
            name = table;
            lexer.next();
        }
        return name.toLowerCase(Locale.ROOT);
    }

    private static String identifier(SqlLexer lexer) {
        if (lexer.type() == TokenType.WORD) {
            return lexer.text();
        }
        if (lexer.type() == TokenType.QUOTED_IDENTIFIER) {
            String text = lexer.text();
            int end = text.length() > 1 && text.endsWith("`") ? text.length() - 1 : text.length();
            return text.substring(1, end).replace("``", "`");
        }
        return null;
    }
}
