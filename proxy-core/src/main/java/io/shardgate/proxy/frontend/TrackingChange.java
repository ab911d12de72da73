package io.shardgate.proxy.frontend;

import io.shardgate.router.classify.SqlLexer;
import io.shardgate.router.classify.TokenType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A statement that changes the session tracking Shardgate relies on ({@code session_track_*}), read
 * with {@link SqlLexer} so that names inside strings, identifiers or comments never count.
 *
 * <p>Every pooled connection tracks all system variables, the schema and state changes
 * (docs/architecture.md, "Sessions and pooled connections"); a client that narrows or turns that
 * off (MariaDB Connector/J does right after it connects) would leave Shardgate blind to its later
 * changes. After such a statement Shardgate turns its own tracking back on, on that connection,
 * before anything else runs there. What the statement changed besides the tracking may have gone
 * unreported (the server applies the assignments of one SET in order, each reported through the
 * tracking in force at that moment), so Shardgate reads those variables back:
 * {@link #assigned()} names them. When the statement is more than SETs (a multi-statement with a
 * query, a procedure, SET STATEMENT ... FOR), {@link #onlySet()} is false and the session keeps
 * its connection for good.
 *
 * @param onlySet every part of the statement is a plain SET, so {@link #assigned()} is all it changed
 * @param assigned session system variables the statement's SETs assign besides the tracking ones,
 *        lower case, in order, without duplicates
 */
record TrackingChange(boolean onlySet, List<String> assigned) {
    private static final String PREFIX = "session_track_";
    /** A change Shardgate saw only in the server's report (a procedure, a prepared statement): nothing is known. */
    static final TrackingChange UNKNOWN = new TrackingChange(false, List.of());
    private static final List<String> CHARSET_VARIABLES = List.of("character_set_client", "character_set_connection",
            "character_set_results", "collation_connection");

    TrackingChange {
        assigned = List.copyOf(assigned);
    }

    /** Whether a variable name (as the server reports it) is one of the session tracking settings. */
    static boolean isTrackingVariable(String name) {
        return name.regionMatches(true, 0, PREFIX, 0, PREFIX.length());
    }

    /** The tracking change {@code sql} makes, or null when it assigns no {@code session_track_*} variable of the session. */
    static TrackingChange of(CharSequence sql) {
        if (!SqlText.containsIgnoreCase(sql, PREFIX)) {
            return null; // the common case, without lexing
        }
        SqlLexer lexer = new SqlLexer(sql);
        List<String> assigned = new ArrayList<>();
        boolean touched = false;
        boolean onlySet = true;
        TokenType type = lexer.next();
        while (type != TokenType.END) {
            if (type == TokenType.SEMICOLON) {
                type = lexer.next();
                continue;
            }
            if (lexer.isWord("SET")) {
                type = lexer.next();
                if (lexer.isWord("STATEMENT")) {
                    // SET STATEMENT ... FOR: the values hold for one statement, which may be anything (another SET, say).
                    onlySet = false;
                    for (type = lexer.next(); type != TokenType.END && type != TokenType.SEMICOLON && !lexer.isWord("FOR");
                         type = lexer.next()) {
                        String name = type == TokenType.VARIABLE ? sessionVariable(lexer.text()) : type == TokenType.WORD ? lexer.text() : null;
                        touched |= name != null && isTrackingVariable(name);
                    }
                    type = skipStatement(lexer);
                    continue;
                }
                while (true) {
                    Assignment item = assignment(lexer);
                    if (item.name != null && isTrackingVariable(item.name)) {
                        touched = true;
                    } else if (item.name != null && !plain(item.name)) {
                        onlySet = false; // a name this reader will not put into a query of its own
                    } else if (item.name != null) {
                        for (String name : item.name.equals("names") ? CHARSET_VARIABLES : List.of(item.name)) {
                            if (!assigned.contains(name)) {
                                assigned.add(name);
                            }
                        }
                    }
                    type = skipExpression(lexer);
                    if (type != TokenType.OPERATOR) {
                        break; // the statement's end
                    }
                    type = lexer.next(); // past the comma
                }
            } else {
                onlySet = false;
                type = skipStatement(lexer);
            }
        }
        return touched ? new TrackingChange(onlySet, assigned) : null;
    }

    private static boolean plain(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '$')) {
                return false;
            }
        }
        return !name.isEmpty();
    }

    /** One item of a SET list, the lexer on its first token; {@code name} null when it is not a session system variable. */
    private record Assignment(String name) {
    }

    private static Assignment assignment(SqlLexer lexer) {
        boolean global = false;
        if (lexer.isWord("SESSION") || lexer.isWord("LOCAL")) {
            lexer.next();
        } else if (lexer.isWord("GLOBAL") || lexer.isWord("PERSIST") || lexer.isWord("PERSIST_ONLY")) {
            global = true;
            lexer.next();
        }
        if (lexer.isWord("NAMES") || lexer.isWord("CHARSET")) {
            return new Assignment(global ? null : "names");
        }
        if (lexer.isWord("CHARACTER")) {
            lexer.next();
            return new Assignment(global ? null : "names");
        }
        String name;
        if (lexer.type() == TokenType.WORD) {
            name = lexer.text();
        } else if (lexer.type() == TokenType.QUOTED_IDENTIFIER) {
            String quoted = lexer.text();
            name = quoted.substring(1, quoted.length() - (quoted.length() > 1 && quoted.endsWith("`") ? 1 : 0)).replace("``", "`");
        } else if (lexer.type() == TokenType.VARIABLE) {
            name = sessionVariable(lexer.text());
            if (name == null) {
                return new Assignment(null);
            }
        } else {
            return new Assignment(null); // a user variable, or something this reader does not know
        }
        if (global || name.isEmpty() || name.equalsIgnoreCase("TRANSACTION") || name.equalsIgnoreCase("PASSWORD")
                || name.equalsIgnoreCase("ROLE") || name.equalsIgnoreCase("DEFAULT")) {
            return new Assignment(null);
        }
        return new Assignment(name.toLowerCase(Locale.ROOT));
    }

    /** The name in a {@code @@x}, {@code @@session.x} or {@code @@local.x} token; null for a user or global variable. */
    private static String sessionVariable(String token) {
        if (!token.startsWith("@@")) {
            return null;
        }
        String name = token.substring(2);
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.startsWith("global.")) {
            return null;
        }
        return lower.startsWith("session.") || lower.startsWith("local.") ? name.substring(name.indexOf('.') + 1) : name;
    }

    /**
     * Skips the rest of one SET item; returns {@link TokenType#OPERATOR} on the comma that starts the
     * next item, else {@link TokenType#SEMICOLON} or {@link TokenType#END}.
     */
    private static TokenType skipExpression(SqlLexer lexer) {
        int depth = 0;
        TokenType type = lexer.next();
        while (type != TokenType.END && type != TokenType.SEMICOLON) {
            if (lexer.isOperator('(')) {
                depth++;
            } else if (lexer.isOperator(')')) {
                depth = Math.max(0, depth - 1);
            } else if (depth == 0 && lexer.isOperator(',')) {
                return TokenType.OPERATOR;
            }
            type = lexer.next();
        }
        return type;
    }

    private static TokenType skipStatement(SqlLexer lexer) {
        TokenType type = lexer.type();
        while (type != TokenType.END && type != TokenType.SEMICOLON) {
            type = lexer.next();
        }
        return type;
    }

    /** The query that reads {@link #assigned()} back, one column each (the names are plain words, see {@link #plain}). */
    String readBackQuery() {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < assigned.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append("@@SESSION.").append(assigned.get(i));
        }
        return sql.append(" LIMIT 1").toString(); // the session's sql_select_limit does not apply to an explicit LIMIT
    }
}
