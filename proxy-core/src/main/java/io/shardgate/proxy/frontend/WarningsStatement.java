package io.shardgate.proxy.frontend;

import io.shardgate.proxy.protocol.LocalResultSet;
import io.shardgate.proxy.sharding.ShardWarning;
import io.shardgate.proxy.sharding.ShardWarnings;
import io.shardgate.router.classify.SqlLexer;
import io.shardgate.router.classify.TokenType;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A statement that reads the last statement's diagnostics, read by its tokens, and its answer from the warnings
 * every shard of a sharded statement gave ({@link ShardWarnings}), as one server answers it:
 * <ul>
 *   <li>{@code SHOW WARNINGS [LIMIT [offset,] count]} and {@code SHOW ERRORS [LIMIT ...]}: Level, Code, Message;</li>
 *   <li>{@code SHOW COUNT(*) WARNINGS} and {@code SHOW COUNT(*) ERRORS}: {@code @@session.warning_count},
 *       {@code @@session.error_count};</li>
 *   <li>{@code SELECT @@[session.]warning_count} or {@code error_count} alone, its column named as written.</li>
 * </ul>
 *
 * @param kind   what it reads
 * @param offset the rows to skip ({@code LIMIT offset, count})
 * @param limit  the most rows to list ({@link Long#MAX_VALUE} without LIMIT)
 * @param column the count's column name, for the counts
 */
record WarningsStatement(Kind kind, long offset, long limit, String column) {
    enum Kind { WARNINGS, ERRORS, WARNING_COUNT, ERROR_COUNT }

    private static final int MAX_DIGITS = 18;

    /** {@code sql} as such a statement, if it is one. */
    static Optional<WarningsStatement> parse(String sql) {
        SqlLexer lexer = new SqlLexer(sql);
        lexer.next();
        if (lexer.isWord("SELECT")) {
            lexer.next();
            if (lexer.type() != TokenType.VARIABLE) {
                return Optional.empty();
            }
            String column = lexer.text();
            String name = column.toLowerCase(Locale.ROOT).replace("@@session.", "@@").replace("@@local.", "@@");
            Kind kind = name.equals("@@warning_count") ? Kind.WARNING_COUNT : name.equals("@@error_count") ? Kind.ERROR_COUNT : null;
            return kind != null && StatementEnd.follows(lexer) ? Optional.of(new WarningsStatement(kind, 0, 1, column)) : Optional.empty();
        }
        if (!lexer.isWord("SHOW")) {
            return Optional.empty();
        }
        lexer.next();
        if (lexer.isWord("COUNT")) {
            lexer.next();
            if (!lexer.isOperator('(') || !next(lexer).isOperator('*') || !next(lexer).isOperator(')')) {
                return Optional.empty();
            }
            lexer.next();
            Kind kind = lexer.isWord("WARNINGS") ? Kind.WARNING_COUNT : lexer.isWord("ERRORS") ? Kind.ERROR_COUNT : null;
            return kind != null && StatementEnd.follows(lexer) ? Optional.of(new WarningsStatement(kind, 0, 1,
                    kind == Kind.WARNING_COUNT ? "@@session.warning_count" : "@@session.error_count")) : Optional.empty();
        }
        Kind kind = lexer.isWord("WARNINGS") ? Kind.WARNINGS : lexer.isWord("ERRORS") ? Kind.ERRORS : null;
        if (kind == null) {
            return Optional.empty();
        }
        lexer.next();
        if (end(lexer)) {
            return Optional.of(new WarningsStatement(kind, 0, Long.MAX_VALUE, ""));
        }
        if (!lexer.isWord("LIMIT")) {
            return Optional.empty();
        }
        long first = number(next(lexer));
        if (first < 0) {
            return Optional.empty();
        }
        lexer.next();
        if (!lexer.isOperator(',')) {
            return end(lexer) ? Optional.of(new WarningsStatement(kind, 0, first, "")) : Optional.empty();
        }
        long second = number(next(lexer));
        return second >= 0 && StatementEnd.follows(lexer) ? Optional.of(new WarningsStatement(kind, first, second, "")) : Optional.empty();
    }

    /** The answer from {@code warnings}. */
    LocalResultSet answer(ShardWarnings warnings) {
        return switch (kind) {
            case WARNING_COUNT -> new LocalResultSet(List.of(column), List.of(List.of(Long.toString(warnings.count()))));
            case ERROR_COUNT -> new LocalResultSet(List.of(column), List.of(List.of(Integer.toString(warnings.errors().size()))));
            case WARNINGS, ERRORS -> {
                List<ShardWarning> all = kind == Kind.WARNINGS ? warnings.rows() : warnings.errors();
                List<List<String>> rows = all.stream().skip(Math.min(offset, all.size())).limit(limit)
                        .map(w -> List.of(w.level(), Integer.toString(w.code()), w.clientMessage())).toList();
                yield new LocalResultSet(List.of("Level", "Code", "Message"), rows);
            }
        };
    }

    private static SqlLexer next(SqlLexer lexer) {
        lexer.next();
        return lexer;
    }

    /** The current token as a non-negative integer; -1 when it is none. */
    private static long number(SqlLexer lexer) {
        String text = lexer.text();
        if (lexer.type() != TokenType.NUMBER || text.isEmpty() || text.length() > MAX_DIGITS
                || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        return Long.parseLong(text);
    }

    /** Whether the current token is the statement's end: nothing, or a semicolon and nothing. */
    private static boolean end(SqlLexer lexer) {
        if (lexer.type() == TokenType.END) {
            return true;
        }
        return lexer.type() == TokenType.SEMICOLON && lexer.next() == TokenType.END;
    }
}
