package io.shardgate.router.classify;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lexer skips strings of a String input with {@link String#indexOf(int, int)} and those of any other
 * CharSequence char by char: both must cut every input into the same tokens, with and without
 * NO_BACKSLASH_ESCAPES. Checked on the classifier's golden corpus and on random quote-heavy text.
 */
class SqlLexerFastPathTest {

    private static final String[] PIECES = {
            "'", "\"", "`", "\\", "''", "\\'", "\\\\", "a", "1", " ", ",", "(", ")", ";", "/*", "*/", "/*!", "-- ", "#", "\n",
            "@", "@@", "x'0A'", "SELECT ", "INSERT INTO t VALUES ", "é", "\u20ac",
    };

    @Test
    void stringAndCharSequenceInputsGiveTheSameTokensOnTheGoldenCorpus() {
        int compared = 0;
        for (StatementClassificationGoldenTest.Row row : StatementClassificationGoldenTest.rows()) {
            assertSameTokens(row.sql());
            compared++;
        }
        assertThat(compared).isGreaterThan(100);
    }

    @Test
    void stringAndCharSequenceInputsGiveTheSameTokensOnRandomQuotedText() {
        Random random = new Random(20261126L);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sql = new StringBuilder();
            int parts = random.nextInt(40);
            for (int p = 0; p < parts; p++) {
                sql.append(PIECES[random.nextInt(PIECES.length)]);
            }
            assertSameTokens(sql.toString());
        }
    }

    @Test
    void aLongMultiRowInsertIsOneTokenPerValue() {
        StringBuilder sql = new StringBuilder("INSERT INTO t (id, c) VALUES ");
        for (int r = 0; r < 1000; r++) {
            sql.append(r == 0 ? "" : ",").append('(').append(r).append(", 'it''s \\'quoted\\' text ").append(r).append("')");
        }
        List<String> tokens = tokens(sql.toString(), false);
        assertThat(tokens).hasSize(9 + 1000 * 5 + 999 + 1); // and the hints
        assertThat(tokens.get(12)).isEqualTo("STRING 'it''s \\'quoted\\' text 0'");
        assertThat(tokens).isEqualTo(tokens(new StringBuilder(sql), false));
    }

    private static void assertSameTokens(String sql) {
        for (boolean noBackslashEscapes : new boolean[] {false, true}) {
            assertThat(tokens(sql, noBackslashEscapes)).as("%s (no backslash escapes: %s)", sql, noBackslashEscapes)
                    .isEqualTo(tokens(new StringBuilder(sql), noBackslashEscapes));
        }
    }

    private static List<String> tokens(CharSequence sql, boolean noBackslashEscapes) {
        SqlLexer lexer = new SqlLexer(sql, noBackslashEscapes);
        List<String> tokens = new ArrayList<>();
        for (TokenType type = lexer.next(); type != TokenType.END; type = lexer.next()) {
            tokens.add(type + " " + lexer.text());
        }
        tokens.add("hints " + lexer.hints());
        return tokens;
    }
}
