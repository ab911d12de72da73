package io.shardgate.proxy.frontend;

import io.shardgate.router.classify.SqlLexer;
import io.shardgate.router.classify.TokenType;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A multi-statement split into its statements by the lexer: at each {@code ;} outside strings,
 * quoted identifiers and comments. Text that may hold a compound statement, whose own semicolons
 * do not end it ({@code BEGIN ... END}, a stored program's body, a client's DELIMITER), is not split.
 */
final class MultiStatements {
    /** Words that may start or surround a compound statement. */
    private static final Set<String> COMPOUND = Set.of("PROCEDURE", "FUNCTION", "TRIGGER", "EVENT", "DELIMITER", "END");

    private MultiStatements() {
    }

    /**
     * The statements of {@code sql}, each the text between two semicolons, trimmed (comments kept, so an
     * executable comment still runs; a piece with neither a token nor an executable comment is dropped);
     * empty when there are fewer than two or the text is not to be split.
     */
    static Optional<List<String>> split(String sql, boolean noBackslashEscapes) {
        List<String> statements = new ArrayList<>();
        SqlLexer lexer = new SqlLexer(sql, noBackslashEscapes);
        int from = 0;
        boolean tokens = false;
        for (TokenType type = lexer.next(); ; type = lexer.next()) {
            if (type == TokenType.END || type == TokenType.SEMICOLON) {
                String piece = sql.substring(from, type == TokenType.END ? sql.length() : lexer.start()).strip();
                if (tokens || piece.contains("/*!") || piece.contains("/*M!")) {
                    statements.add(piece);
                }
                if (type == TokenType.END) {
                    break;
                }
                from = lexer.end();
                tokens = false;
                continue;
            }
            if (type == TokenType.WORD) {
                String word = lexer.text().toUpperCase(java.util.Locale.ROOT);
                if (COMPOUND.contains(word) || (word.equals("BEGIN") && tokens)) {
                    return Optional.empty();
                }
            }
            tokens = true;
        }
        return statements.size() > 1 ? Optional.of(statements) : Optional.empty();
    }
}
