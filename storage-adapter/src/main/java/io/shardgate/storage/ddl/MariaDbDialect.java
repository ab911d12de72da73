package io.shardgate.storage.ddl;

import com.alibaba.druid.sql.parser.Token;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Makes MariaDB-only DDL syntax readable for Druid's MySQL parser by blanking it out (spaces, so
 * every offset stays valid), and keeps the table options it removed for the checks:
 * <ul>
 *   <li>table options {@code PAGE_COMPRESSED}, {@code PAGE_COMPRESSION_LEVEL}, {@code ENCRYPTED},
 *       {@code ENCRYPTION_KEY_ID}, {@code IETF_QUOTES} (kept in {@link Normalized#tableOptions()});</li>
 *   <li>{@code CREATE OR REPLACE}, {@code IF [NOT] EXISTS}, {@code WAIT n} / {@code NOWAIT};</li>
 *   <li>the column attributes {@code INVISIBLE}, {@code COMPRESSED[=method]} and
 *       {@code WITH[OUT] SYSTEM VERSIONING}.</li>
 * </ul>
 * None of these changes what the validator checks. The statement sent to the shard is always the
 * original text, never this one.
 */
final class MariaDbDialect {
    private static final Set<String> TABLE_OPTIONS = Set.of(
            "PAGE_COMPRESSED", "PAGE_COMPRESSION_LEVEL", "ENCRYPTED", "ENCRYPTION_KEY_ID", "IETF_QUOTES");
    private static final Set<String> OPTION_WORDS = Set.of("YES", "NO", "DEFAULT", "ON", "OFF");
    /** Tokens after which a word is a column or index name rather than an attribute. */
    private static final Set<String> NAME_POSITIONS = Set.of("ADD", "COLUMN", "DROP", "MODIFY", "CHANGE", "RENAME",
            "TO", "AFTER", "KEY", "INDEX", "BY", "AS", "SET");

    private MariaDbDialect() {
    }

    /**
     * @param parseable    the statement with MariaDB-only syntax blanked out
     * @param tableOptions the MariaDB-only table options found, name (upper case) to value (as
     *                     written, quotes removed)
     */
    record Normalized(String parseable, Map<String, String> tableOptions) {
    }

    static Normalized normalize(String sql, List<SqlToken> tokens) {
        requireNonNull(sql, "sql is null");
        char[] text = sql.toCharArray();
        Map<String, String> options = new LinkedHashMap<>();
        if (tokens.isEmpty()) {
            return new Normalized(sql, options);
        }
        boolean tableStatement = isTableStatement(tokens);
        for (int i = 0; i < tokens.size(); i++) {
            SqlToken token = tokens.get(i);
            SqlToken previous = i > 0 ? tokens.get(i - 1) : null;
            if (i == 1 && token.kind() == Token.OR && tokens.get(0).is("CREATE") && at(tokens, 2, "REPLACE")) {
                blank(text, token);
                blank(text, tokens.get(2));
                i = 2;
            } else if (token.kind() == Token.IF && at(tokens, i + 1, "EXISTS")) {
                blank(text, token);
                blank(text, tokens.get(i + 1));
                i += 1;
            } else if (token.kind() == Token.IF && at(tokens, i + 1, "NOT") && at(tokens, i + 2, "EXISTS")) {
                blank(text, token);
                blank(text, tokens.get(i + 1));
                blank(text, tokens.get(i + 2));
                i += 2;
            } else if (isWait(tokens, i)) {
                blank(text, token);
                if (token.is("WAIT")) {
                    blank(text, tokens.get(++i));
                }
            } else if (tableStatement && token.depth() == 0 && token.kind() == Token.IDENTIFIER
                    && TABLE_OPTIONS.contains(token.upper()) && !afterNameKeyword(previous)) {
                i = tableOption(text, tokens, i, options);
            } else if (token.kind() == Token.IDENTIFIER && token.is("INVISIBLE") && !namePosition(previous)) {
                blank(text, token);
            } else if (token.kind() == Token.IDENTIFIER && token.is("COMPRESSED") && previous != null
                    && previous.kind() != Token.EQ && !previous.is("ROW_FORMAT") && !namePosition(previous)) {
                blank(text, token);
                if (i + 2 < tokens.size() && tokens.get(i + 1).kind() == Token.EQ) {
                    blank(text, tokens.get(i + 1));
                    blank(text, tokens.get(i + 2));
                    i += 2;
                }
            } else if ((token.kind() == Token.WITH || token.is("WITHOUT")) && at(tokens, i + 1, "SYSTEM")
                    && at(tokens, i + 2, "VERSIONING")) {
                blank(text, token);
                blank(text, tokens.get(i + 1));
                blank(text, tokens.get(i + 2));
                i += 2;
            }
        }
        return new Normalized(new String(text), options);
    }

    /** Records and blanks {@code NAME [=] value} at {@code i}, with one adjacent comma; returns the last index used. */
    private static int tableOption(char[] text, List<SqlToken> tokens, int i, Map<String, String> options) {
        SqlToken name = tokens.get(i);
        int next = i + 1;
        boolean equals = next < tokens.size() && tokens.get(next).kind() == Token.EQ;
        int valueIndex = equals ? next + 1 : next;
        if (valueIndex >= tokens.size() || !isOptionValue(tokens.get(valueIndex), equals)) {
            return i;
        }
        SqlToken value = tokens.get(valueIndex);
        options.put(name.upper(), value.unquoted());
        blank(text, name);
        if (equals) {
            blank(text, tokens.get(next));
        }
        blank(text, value);
        if (valueIndex + 1 < tokens.size() && tokens.get(valueIndex + 1).kind() == Token.COMMA) {
            blank(text, tokens.get(valueIndex + 1));
            return valueIndex + 1;
        }
        if (i > 0 && tokens.get(i - 1).kind() == Token.COMMA) {
            blank(text, tokens.get(i - 1));
        }
        return valueIndex;
    }

    private static boolean isOptionValue(SqlToken value, boolean afterEquals) {
        return switch (value.kind()) {
            case LITERAL_INT, LITERAL_CHARS -> true;
            case IDENTIFIER -> afterEquals || OPTION_WORDS.contains(value.upper());
            default -> value.kind() == Token.DEFAULT || value.kind() == Token.ON;
        };
    }

    /** {@code WAIT n} or {@code NOWAIT} right after the table name of an ALTER TABLE or an index statement's ON. */
    private static boolean isWait(List<SqlToken> tokens, int i) {
        SqlToken token = tokens.get(i);
        boolean wait = token.is("WAIT") && i + 1 < tokens.size() && tokens.get(i + 1).kind() == Token.LITERAL_INT;
        if (!wait && !token.is("NOWAIT")) {
            return false;
        }
        int nameEnd = i - 1;
        int nameStart = nameEnd >= 2 && tokens.get(nameEnd - 1).kind() == Token.DOT ? nameEnd - 2 : nameEnd;
        if (nameStart < 1) {
            return false;
        }
        SqlToken before = tokens.get(nameStart - 1);
        return before.kind() == Token.TABLE || before.kind() == Token.ON;
    }

    /** Whether {@code previous} makes the next word a name: ADD, COLUMN, DROP, CHANGE, ... */
    private static boolean afterNameKeyword(SqlToken previous) {
        return previous != null && (previous.kind() == Token.DOT || NAME_POSITIONS.contains(previous.upper()));
    }

    private static boolean namePosition(SqlToken previous) {
        return previous == null || previous.kind() == Token.LPAREN || previous.kind() == Token.COMMA
                || previous.kind() == Token.DOT || NAME_POSITIONS.contains(previous.upper());
    }

    private static boolean isTableStatement(List<SqlToken> tokens) {
        for (SqlToken token : tokens) {
            if (token.kind() == Token.TABLE) {
                return tokens.get(0).is("CREATE") || tokens.get(0).is("ALTER");
            }
            if (token.kind() == Token.LPAREN) {
                return false;
            }
        }
        return false;
    }

    private static boolean at(List<SqlToken> tokens, int index, String word) {
        return index < tokens.size() && tokens.get(index).is(word);
    }

    /** Replaces the token (and any comment right before it) with spaces, keeping line breaks. */
    private static void blank(char[] text, SqlToken token) {
        for (int i = token.start(); i < token.end() && i < text.length; i++) {
            if (text[i] != '\n' && text[i] != '\r') {
                text[i] = ' ';
            }
        }
    }
}
