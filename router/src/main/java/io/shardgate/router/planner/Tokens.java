package io.shardgate.router.planner;

import io.shardgate.router.classify.SqlLexer;
import io.shardgate.router.classify.TokenType;
import io.shardgate.router.plan.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The statement's tokens with their parenthesis depth, from the classifier's lexer: where the planner
 * finds clause boundaries to edit the SQL text (Druid finds the meaning, these find the places), so
 * everything it does not edit reaches the shards exactly as the client wrote it.
 */
final class Tokens {

    /**
     * @param depth     the parenthesis depth; a {@code (} and its {@code )} have the depth of what surrounds them
     * @param parameter for a {@code ?}, its zero-based index in the statement; -1 otherwise
     */
    record Token(TokenType type, int start, int end, int depth, int parameter) {
    }

    private final String sql;
    private final List<Token> tokens;
    private final int parameterCount;

    private Tokens(String sql, List<Token> tokens, int parameterCount) {
        this.sql = sql;
        this.tokens = tokens;
        this.parameterCount = parameterCount;
    }

    static Tokens of(String sql) {
        SqlLexer lexer = new SqlLexer(sql);
        // About one token per six characters (a multi-row INSERT's "(1,2,'abc')," included): no regrowth for long statements.
        List<Token> tokens = new ArrayList<>(Math.max(16, sql.length() / 6));
        int depth = 0;
        int parameters = 0;
        for (TokenType type = lexer.next(); type != TokenType.END; type = lexer.next()) {
            if (lexer.isOperator(')')) {
                depth = Math.max(0, depth - 1);
            }
            int parameter = lexer.isOperator('?') ? parameters++ : -1;
            tokens.add(new Token(type, lexer.start(), lexer.end(), depth, parameter));
            if (lexer.isOperator('(')) {
                depth++;
            }
        }
        return new Tokens(sql, List.copyOf(tokens), parameters);
    }

    String sql() {
        return sql;
    }

    int size() {
        return tokens.size();
    }

    Token get(int i) {
        return tokens.get(i);
    }

    int parameterCount() {
        return parameterCount;
    }

    boolean isWord(int i, String upperCase) {
        return i >= 0 && i < tokens.size() && tokens.get(i).type() == TokenType.WORD && text(i).toUpperCase(Locale.ROOT).equals(upperCase);
    }

    boolean isOperator(int i, char c) {
        if (i < 0 || i >= tokens.size()) {
            return false;
        }
        Token t = tokens.get(i);
        return t.type() == TokenType.OPERATOR && t.end() - t.start() == 1 && sql.charAt(t.start()) == c;
    }

    String text(int i) {
        Token t = tokens.get(i);
        return sql.substring(t.start(), t.end());
    }

    /** The token index of the {@code )} matching the {@code (} at {@code open}, or -1. */
    int closing(int open) {
        int depth = tokens.get(open).depth();
        for (int i = open + 1; i < tokens.size(); i++) {
            if (isOperator(i, ')') && tokens.get(i).depth() == depth) {
                return i;
            }
        }
        return -1;
    }

    /** The text of {@code [start, end)} with the parameters of its {@code ?}. */
    Fragment fragment(int start, int end) {
        if (parameterCount == 0) {
            return new Fragment(sql.substring(start, end), List.of());
        }
        List<ValueSource> parameters = new ArrayList<>();
        // Only the tokens inside the range: a scan of every token per fragment made a multi-row INSERT quadratic.
        for (int i = firstStartingAt(start); i < tokens.size() && tokens.get(i).start() < end; i++) {
            Token t = tokens.get(i);
            if (t.parameter() >= 0 && t.end() <= end) {
                parameters.add(new ValueSource.Parameter(t.parameter()));
            }
        }
        return new Fragment(sql.substring(start, end), parameters);
    }

    /** The index of the first token starting at or after {@code offset} (tokens are in text order). */
    private int firstStartingAt(int offset) {
        int low = 0;
        int high = tokens.size();
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (tokens.get(mid).start() < offset) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /** A piece of SQL text and what its {@code ?} are bound to. */
    record Fragment(String text, List<ValueSource> parameters) {
        Fragment {
            parameters = List.copyOf(parameters);
        }

        static Fragment of(String text) {
            return new Fragment(text, List.of());
        }
    }
}
