package io.shardgate.proxy.frontend;

import io.shardgate.router.classify.SqlLexer;
import io.shardgate.router.classify.TokenType;

import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Statements Shardgate answers itself and never sends to a backend:
 * <ul>
 *   <li>{@code SET [@@session.|SESSION ]shardgate_max_lag_ms = N | DEFAULT}: the session's freshness budget;</li>
 *   <li>{@code SELECT @@[session.]shardgate_max_lag_ms};</li>
 *   <li>{@code SELECT @@[session.]shardgate_causal_token}: the session's causality token;</li>
 *   <li>{@code SET [@@session.|SESSION ]shardgate_causal_token = '…'}: read-your-writes from another session;</li>
 *   <li>{@code SET [SESSION ]shardgate_allow_blocking_ddl = ON | OFF}: lets ALTERs that block writes through;</li>
 *   <li>{@code SHOW SHARDGATE <word>}: the statements of {@link ShowShardgate} (BACKENDS, QUERIES, HELP, ...);
 *       a word none of them is, or none at all, is a syntax error that lists them ({@link NotUnderstood});</li>
 *   <li>{@code EXPLAIN SHARDGATE <statement>}: recognised here, answered by the planner in a sharded deployment.</li>
 * </ul>
 * A known SHOW SHARDGATE word followed by more text is not Shardgate's: it goes on as it is and gets the server's
 * own syntax error.
 */
sealed interface ShardgateStatement {
    record SetMaxLag(OptionalLong millis) implements ShardgateStatement {
    }

    record GetMaxLag() implements ShardgateStatement {
    }

    record GetCausalToken() implements ShardgateStatement {
    }

    record SetCausalToken(String token) implements ShardgateStatement {
    }

    /** {@code SHOW SHARDGATE <word>}: one of {@link ShowShardgate}'s statements. */
    record Show(ShowShardgate what) implements ShardgateStatement {
    }

    /** {@code EXPLAIN SHARDGATE <statement>}. */
    record Explain(String statement) implements ShardgateStatement {
    }

    /** SHOW SHARDGATE followed by no word it takes, or EXPLAIN SHARDGATE by nothing: the text from there on ({@code near}). */
    record NotUnderstood(String near) implements ShardgateStatement {
    }

    record SetAllowBlockingDdl(boolean allowed) implements ShardgateStatement {
    }

    int MAX_LAG_DIGITS = 12;

    /** The Shardgate statement {@code sql} is, if any; cheap for everything else. Recognised by its tokens. */
    static Optional<ShardgateStatement> parse(String sql) {
        if (!SqlText.containsIgnoreCase(sql, "shardgate")) {
            return Optional.empty();
        }
        SqlLexer lexer = new SqlLexer(sql);
        lexer.next();
        if (lexer.isWord("SELECT")) {
            lexer.next();
            String name = systemVariable(lexer);
            if (name == null || !StatementEnd.follows(lexer)) {
                return Optional.empty();
            }
            return switch (name) {
                case "SHARDGATE_MAX_LAG_MS" -> Optional.of(new GetMaxLag());
                case "SHARDGATE_CAUSAL_TOKEN" -> Optional.of(new GetCausalToken());
                default -> Optional.empty();
            };
        }
        if (lexer.isWord("SHOW") || lexer.isWord("EXPLAIN")) {
            boolean show = lexer.isWord("SHOW");
            lexer.next();
            if (!lexer.isWord("SHARDGATE")) {
                return Optional.empty();
            }
            TokenType type = lexer.next();
            if (!show) {
                return Optional.of(type == TokenType.END || type == TokenType.SEMICOLON ? new NotUnderstood("")
                        : new Explain(sql.substring(lexer.start())));
            }
            ShowShardgate what = type == TokenType.WORD ? ShowShardgate.named(lexer.text()) : null;
            if (what == null) {
                return Optional.of(new NotUnderstood(sql.substring(lexer.start()).strip()));
            }
            // A known word followed by more (SHOW SHARDGATE QUERIES LIKE 'x') goes on as it is, to get the server's own error.
            return StatementEnd.follows(lexer) ? Optional.of(new Show(what)) : Optional.empty();
        }
        if (!lexer.isWord("SET")) {
            return Optional.empty();
        }
        TokenType type = lexer.next();
        String name;
        if (type == TokenType.VARIABLE) {
            name = systemVariable(lexer);
        } else {
            if (lexer.isWord("SESSION") || lexer.isWord("LOCAL")) {
                type = lexer.next();
            }
            name = type == TokenType.WORD ? lexer.text().toUpperCase(Locale.ROOT) : null;
        }
        if (name == null) {
            return Optional.empty();
        }
        lexer.next();
        if (!lexer.isOperator('=') && !lexer.isAssign()) {
            return Optional.empty();
        }
        type = lexer.next();
        String value = lexer.text();
        Optional<ShardgateStatement> statement = switch (name) {
            case "SHARDGATE_MAX_LAG_MS" -> maxLag(type, lexer, value);
            case "SHARDGATE_CAUSAL_TOKEN" -> causalToken(type, value);
            case "SHARDGATE_ALLOW_BLOCKING_DDL" -> blockingDdl(type, value);
            default -> Optional.empty();
        };
        return statement.isPresent() && StatementEnd.follows(lexer) ? statement : Optional.empty();
    }

    /** The upper-case name of the current token when it is {@code @@name} or {@code @@session.name} ({@code @@local.name}); else null. */
    private static String systemVariable(SqlLexer lexer) {
        if (lexer.type() != TokenType.VARIABLE) {
            return null;
        }
        String text = lexer.text().toUpperCase(Locale.ROOT);
        if (!text.startsWith("@@")) {
            return null;
        }
        String name = text.substring(2);
        if (name.startsWith("SESSION.")) {
            name = name.substring("SESSION.".length());
        } else if (name.startsWith("LOCAL.")) {
            name = name.substring("LOCAL.".length());
        }
        return name.indexOf('.') >= 0 ? null : name;
    }

    private static Optional<ShardgateStatement> maxLag(TokenType type, SqlLexer lexer, String value) {
        if (lexer.isWord("DEFAULT")) {
            return Optional.of(new SetMaxLag(OptionalLong.empty()));
        }
        if (type != TokenType.NUMBER || value.length() > MAX_LAG_DIGITS || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Optional.empty();
        }
        return Optional.of(new SetMaxLag(OptionalLong.of(Long.parseLong(value))));
    }

    private static Optional<ShardgateStatement> causalToken(TokenType type, String value) {
        if (type != TokenType.STRING || value.length() < 2 || value.charAt(0) != '\'' || value.charAt(value.length() - 1) != '\'') {
            return Optional.empty();
        }
        String token = value.substring(1, value.length() - 1);
        // A token is plain ASCII: a quote or backslash in it is no token (and would need unescaping).
        return token.indexOf('\'') >= 0 || token.indexOf('\\') >= 0 ? Optional.empty() : Optional.of(new SetCausalToken(token));
    }

    private static Optional<ShardgateStatement> blockingDdl(TokenType type, String value) {
        String word = value;
        if (type == TokenType.STRING && value.length() >= 2) {
            word = value.substring(1, value.length() - 1);
        } else if (type != TokenType.WORD && type != TokenType.NUMBER) {
            return Optional.empty();
        }
        return switch (word.toLowerCase(Locale.ROOT)) {
            case "on", "1", "true" -> Optional.of(new SetAllowBlockingDdl(true));
            case "off", "0", "false", "default" -> Optional.of(new SetAllowBlockingDdl(false));
            default -> Optional.empty();
        };
    }
}
