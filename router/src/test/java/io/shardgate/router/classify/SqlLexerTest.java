package io.shardgate.router.classify;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class SqlLexerTest {

    /** Tokens as {@code TYPE:text}. */
    private static List<String> tokens(String sql) {
        SqlLexer lexer = new SqlLexer(sql);
        List<String> out = new ArrayList<>();
        for (TokenType type = lexer.next(); type != TokenType.END; type = lexer.next()) {
            out.add(type + ":" + lexer.text());
        }
        return out;
    }

    @Test
    void wordsNumbersOperatorsAndSemicolons() {
        assertThat(tokens("SELECT a1, 1.5e-3 FROM t WHERE id>=.5;"))
                .containsExactly("WORD:SELECT", "WORD:a1", "OPERATOR:,", "NUMBER:1.5e-3", "WORD:FROM", "WORD:t",
                        "WORD:WHERE", "WORD:id", "OPERATOR:>", "OPERATOR:=", "NUMBER:.5", "SEMICOLON:;");
    }

    @Test
    void skipsAllThreeCommentStyles() {
        assertThat(tokens("/* a */ SELECT -- b\n 1 # c\n, 2/**/"))
                .containsExactly("WORD:SELECT", "NUMBER:1", "OPERATOR:,", "NUMBER:2");
    }

    @Test
    void doubleDashNeedsASpaceToStartAComment() {
        assertThat(tokens("SELECT 1--1")).containsExactly("WORD:SELECT", "NUMBER:1", "OPERATOR:-", "OPERATOR:-", "NUMBER:1");
        assertThat(tokens("SELECT 1 --")).containsExactly("WORD:SELECT", "NUMBER:1");
        assertThat(tokens("SELECT 1 --\tx")).containsExactly("WORD:SELECT", "NUMBER:1");
    }

    @Test
    void stringsWithBothEscapes() {
        assertThat(tokens("'it''s' \"a\\\"b\" 'c\\'d' x"))
                .containsExactly("STRING:'it''s'", "STRING:\"a\\\"b\"", "STRING:'c\\'d'", "WORD:x");
    }

    @Test
    void commentMarkersInsideStringsAreText() {
        assertThat(tokens("SELECT '/*', '--', '#' FROM t"))
                .containsExactly("WORD:SELECT", "STRING:'/*'", "OPERATOR:,", "STRING:'--'", "OPERATOR:,", "STRING:'#'",
                        "WORD:FROM", "WORD:t");
    }

    @Test
    void backquotedIdentifiersWithDoubledBackquotes() {
        assertThat(tokens("SELECT `a``b`, `x y` FROM `t`"))
                .containsExactly("WORD:SELECT", "QUOTED_IDENTIFIER:`a``b`", "OPERATOR:,", "QUOTED_IDENTIFIER:`x y`",
                        "WORD:FROM", "QUOTED_IDENTIFIER:`t`");
    }

    @Test
    void variablesAndAssignment() {
        assertThat(tokens("SET @x := 1, @@session.autocommit = 0, @'q r' = 2"))
                .containsExactly("WORD:SET", "VARIABLE:@x", "OPERATOR::=", "NUMBER:1", "OPERATOR:,",
                        "VARIABLE:@@session.autocommit", "OPERATOR:=", "NUMBER:0", "OPERATOR:,", "VARIABLE:@'q r'",
                        "OPERATOR:=", "NUMBER:2");
    }

    @Test
    void executableCommentsAreSql() {
        assertThat(tokens("/*!40101 SET NAMES utf8 */;")).containsExactly("WORD:SET", "WORD:NAMES", "WORD:utf8", "SEMICOLON:;");
        assertThat(tokens("/*!SELECT*/ 1")).containsExactly("WORD:SELECT", "NUMBER:1");
        assertThat(tokens("SELECT /*!50000 SQL_NO_CACHE */ 1"))
                .containsExactly("WORD:SELECT", "WORD:SQL_NO_CACHE", "NUMBER:1");
        assertThat(tokens("/*!80000 SELECT 1 /* inner */ */ x")).containsExactly("WORD:SELECT", "NUMBER:1", "WORD:x");
    }

    @Test
    void closingMarkOutsideAnExecutableCommentIsOperators() {
        assertThat(tokens("SELECT 2 */ 3")).containsExactly("WORD:SELECT", "NUMBER:2", "OPERATOR:*", "OPERATOR:/", "NUMBER:3");
    }

    @Test
    void shardgateHints() {
        SqlLexer lexer = lexAll("/*+ shardgate primary */ SELECT 1");
        assertThat(lexer.hints()).isEqualTo(new Hints(OptionalLong.empty(), true));

        lexer = lexAll("SELECT /*+ SHARDGATE max_lag_ms=250 */ 1");
        assertThat(lexer.hints()).isEqualTo(new Hints(OptionalLong.of(250), false));

        lexer = lexAll("/*+ shardgate max_lag_ms = 90 primary */ SELECT /*+ shardgate max_lag_ms=40 */ 1");
        assertThat(lexer.hints()).as("both, and the smaller lag").isEqualTo(new Hints(OptionalLong.of(40), true));
    }

    @Test
    void otherOptimizerHintsAndMalformedHintsAreIgnored() {
        assertThat(lexAll("SELECT /*+ BKA(t1) */ 1").hints()).isSameAs(Hints.NONE);
        assertThat(lexAll("SELECT /*+ shardgatex primary */ 1").hints()).isSameAs(Hints.NONE);
        assertThat(lexAll("SELECT /*+ shardgate max_lag_ms=abc */ 1").hints()).isSameAs(Hints.NONE);
        assertThat(lexAll("SELECT /*+ shardgate max_lag_ms=12x */ 1").hints()).isSameAs(Hints.NONE);
        assertThat(lexAll("SELECT /*+ shardgate max_lag_ms=99999999999999999999999 */ 1").hints()).isSameAs(Hints.NONE);
        assertThat(lexAll("SELECT /* shardgate primary */ 1").hints()).as("needs the +").isSameAs(Hints.NONE);
        assertThat(lexAll("SELECT '/*+ shardgate primary */'").hints()).as("inside a string").isSameAs(Hints.NONE);
    }

    @Test
    void hintInAnUnterminatedCommentStillCounts() {
        assertThat(lexAll("SELECT 1 /*+ shardgate primary").hints().forcePrimary()).isTrue();
    }

    @Test
    void unterminatedThingsRunToTheEnd() {
        assertThat(tokens("SELECT 'abc")).containsExactly("WORD:SELECT", "STRING:'abc");
        assertThat(tokens("SELECT \"abc\\")).containsExactly("WORD:SELECT", "STRING:\"abc\\");
        assertThat(tokens("SELECT `abc")).containsExactly("WORD:SELECT", "QUOTED_IDENTIFIER:`abc");
        assertThat(tokens("SELECT /* abc")).containsExactly("WORD:SELECT");
        assertThat(tokens("/*!50000")).isEmpty();
        assertThat(tokens("@")).containsExactly("VARIABLE:@");
        assertThat(tokens("@'x")).containsExactly("VARIABLE:@'x");
    }

    @Test
    void endRepeats() {
        SqlLexer lexer = new SqlLexer("");
        assertThat(lexer.next()).isEqualTo(TokenType.END);
        assertThat(lexer.next()).isEqualTo(TokenType.END);
        assertThat(lexer.start()).isZero();
    }

    @Test
    void keywordsCompareIgnoringCase() {
        SqlLexer lexer = new SqlLexer("sElEcT");
        lexer.next();
        assertThat(lexer.isWord("SELECT")).isTrue();
        assertThat(lexer.isWord("SELECTS")).isFalse();
    }

    private static SqlLexer lexAll(String sql) {
        SqlLexer lexer = new SqlLexer(sql);
        while (lexer.next() != TokenType.END) {
            // consume
        }
        return lexer;
    }
}
