package io.shardgate.proxy.frontend;

import io.shardgate.router.classify.SqlLexer;
import io.shardgate.router.classify.TokenType;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Statements that read the process list, recognised by their tokens: {@code SHOW [FULL] PROCESSLIST},
 * and any statement that names the table {@code information_schema.PROCESSLIST} (or
 * {@code PROCESSLIST} after FROM or JOIN while the session's schema is information_schema).
 *
 * <p>A statement of the second kind is answered by a backend with Shardgate's sessions in place of
 * the table: each reference becomes a {@code JSON_TABLE} over the rows, its columns declared with
 * the types of MariaDB 10.11's table, so the server evaluates WHERE, ORDER BY, column lists,
 * functions and aggregates exactly as it would on its own list, and the result carries the same
 * column names and types (the metadata's schema and table name are JSON_TABLE's). The rows travel
 * as a hex literal: nothing in a session's statement text can end the literal or change the
 * statement around it.
 */
final class ProcessListQuery {
    private static final String TABLE = "PROCESSLIST";
    private static final String SCHEMA = "INFORMATION_SCHEMA";
    /** Words after a table reference that are not its alias. */
    private static final Set<String> NOT_ALIAS = Set.of("WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "JOIN", "INNER", "LEFT",
            "RIGHT", "CROSS", "NATURAL", "STRAIGHT_JOIN", "FULL", "ON", "USING", "UNION", "EXCEPT", "INTERSECT", "FOR", "LOCK",
            "INTO", "PROCEDURE", "WINDOW", "USE", "IGNORE", "FORCE", "PARTITION", "RETURNING", "OFFSET", "FETCH");
    /** The columns of MariaDB 10.11's information_schema.PROCESSLIST, in order, with their types. */
    private static final String COLUMNS = "ID BIGINT(4) PATH '$[0]', USER VARCHAR(128) CHARACTER SET utf8mb4 PATH '$[1]',"
            + " HOST VARCHAR(64) CHARACTER SET utf8mb4 PATH '$[2]', DB VARCHAR(64) CHARACTER SET utf8mb4 PATH '$[3]',"
            + " COMMAND VARCHAR(16) CHARACTER SET utf8mb4 PATH '$[4]', TIME INT(7) PATH '$[5]',"
            + " STATE VARCHAR(64) CHARACTER SET utf8mb4 PATH '$[6]', INFO MEDIUMTEXT CHARACTER SET utf8mb4 PATH '$[7]',"
            + " TIME_MS DECIMAL(22,3) PATH '$[8]', STAGE TINYINT(2) PATH '$[9]', MAX_STAGE TINYINT(2) PATH '$[9]',"
            + " PROGRESS DECIMAL(7,3) PATH '$[9]', MEMORY_USED BIGINT(7) PATH '$[9]', MAX_MEMORY_USED BIGINT(7) PATH '$[9]',"
            + " EXAMINED_ROWS INT(7) PATH '$[9]', QUERY_ID BIGINT(4) PATH '$[9]', INFO_BINARY BLOB PATH '$[7]', TID BIGINT(4) PATH '$[9]'";

    private ProcessListQuery() {
    }

    /** {@code SHOW [FULL] PROCESSLIST}: null when {@code sql} is not one, else whether it is FULL. */
    static Boolean show(String sql) {
        if (!SqlText.containsIgnoreCase(sql, "processlist")) {
            return null;
        }
        SqlLexer lexer = new SqlLexer(sql);
        lexer.next();
        if (!lexer.isWord("SHOW")) {
            return null;
        }
        lexer.next();
        boolean full = lexer.isWord("FULL");
        if (full) {
            lexer.next();
        }
        return lexer.isWord(TABLE) && StatementEnd.follows(lexer) ? full : null;
    }

    /**
     * {@code sql} with {@code rows} (asked for only then) in place of each reference to the process list
     * table, each followed by {@code AS PROCESSLIST} unless the statement gives the table an alias; a
     * column qualified with {@code information_schema.PROCESSLIST.} keeps {@code PROCESSLIST.}. Null when
     * the statement does not read the table.
     */
    static String rewrite(String sql, boolean noBackslashEscapes, String schema, Supplier<List<ProcessList.Row>> rows) {
        if (!SqlText.containsIgnoreCase(sql, "processlist")) {
            return null;
        }
        List<Token> tokens = Token.all(sql, noBackslashEscapes);
        boolean inInformationSchema = schema != null && schema.equalsIgnoreCase(SCHEMA);
        List<QueryRewriter.Edit> edits = new ArrayList<>();
        String source = null;
        for (int i = 0; i < tokens.size(); i++) {
            Token token = tokens.get(i);
            boolean qualified = i + 2 < tokens.size() && SCHEMA.equals(token.name()) && (i == 0 || !tokens.get(i - 1).is('.'))
                    && tokens.get(i + 1).is('.') && TABLE.equals(tokens.get(i + 2).name());
            boolean unqualified = !qualified && inInformationSchema && TABLE.equals(token.name()) && i > 0
                    && ("FROM".equals(tokens.get(i - 1).name()) || "JOIN".equals(tokens.get(i - 1).name()));
            if (!qualified && !unqualified) {
                continue;
            }
            int last = qualified ? i + 2 : i;
            Token next = last + 1 < tokens.size() ? tokens.get(last + 1) : null;
            String replacement;
            if (next != null && next.is('.')) {
                replacement = TABLE; // a qualified column: the derived table is called PROCESSLIST
            } else {
                source = source == null ? source(rows.get()) : source;
                boolean aliased = next != null && next.name() != null
                        && (next.type() == TokenType.QUOTED_IDENTIFIER || !NOT_ALIAS.contains(next.name()));
                replacement = aliased ? source : source + " AS " + TABLE;
            }
            edits.add(new QueryRewriter.Edit(token.start(), tokens.get(last).end(), replacement));
            i = last;
        }
        return edits.isEmpty() ? null : QueryRewriter.apply(sql, edits);
    }

    /** Whether {@code sql} reads the process list (SHOW or the information_schema table). */
    static boolean reads(String sql, boolean noBackslashEscapes, String schema) {
        return show(sql) != null || rewrite(sql, noBackslashEscapes, schema, List::of) != null;
    }

    /** A token of the statement: {@code name} is an identifier's upper-case name (null for other tokens). */
    private record Token(TokenType type, int start, int end, String name, char operator) {
        static List<Token> all(String sql, boolean noBackslashEscapes) {
            List<Token> tokens = new ArrayList<>();
            SqlLexer lexer = new SqlLexer(sql, noBackslashEscapes);
            for (TokenType type = lexer.next(); type != TokenType.END; type = lexer.next()) {
                String text = lexer.text();
                String name = switch (type) {
                    case WORD -> text.toUpperCase(Locale.ROOT);
                    case QUOTED_IDENTIFIER -> text.substring(1, text.length() - 1).replace("``", "`").toUpperCase(Locale.ROOT);
                    default -> null;
                };
                tokens.add(new Token(type, lexer.start(), lexer.end(), name, type == TokenType.OPERATOR ? text.charAt(0) : 0));
            }
            return tokens;
        }

        boolean is(char c) {
            return type == TokenType.OPERATOR && operator == c;
        }
    }

    /** The rows as a derived table with information_schema.PROCESSLIST's columns (no alias). */
    static String source(List<ProcessList.Row> rows) {
        StringBuilder json = new StringBuilder(64 + 96 * rows.size()).append('[');
        for (ProcessList.Row row : rows) {
            if (json.length() > 1) {
                json.append(',');
            }
            json.append('[').append(row.id()).append(',');
            string(json, row.user()).append(',');
            string(json, row.host()).append(',');
            string(json, row.db()).append(',');
            string(json, row.command()).append(',').append(row.seconds()).append(',');
            string(json, row.state()).append(',');
            String info = row.info();
            if (info != null && info.length() > ProcessList.INFO_WIDTH) {
                info = info.substring(0, ProcessList.INFO_WIDTH);
            }
            string(json, info).append(',').append(row.timeMs()).append(',').append(0).append(']');
        }
        json.append(']');
        String hex = HexFormat.of().formatHex(json.toString().getBytes(StandardCharsets.UTF_8));
        // timeMs is whole milliseconds: TIME_MS shows them with MariaDB's three decimals.
        return "JSON_TABLE(CONVERT(x'" + hex + "' USING utf8mb4), '$[*]' COLUMNS (" + COLUMNS + "))";
    }

    private static StringBuilder string(StringBuilder json, String value) {
        if (value == null) {
            return json.append("null");
        }
        json.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                json.append('\\').append(c);
            } else if (c < 0x20) {
                json.append(String.format("\\u%04x", (int) c));
            } else {
                json.append(c);
            }
        }
        return json.append('"');
    }
}
