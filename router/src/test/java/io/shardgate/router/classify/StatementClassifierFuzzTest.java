package io.shardgate.router.classify;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Random input never throws, from the lexer, the classifier or the decision. */
class StatementClassifierFuzzTest {

    /** Fragments that open or close the lexer's states, mixed with random characters. */
    private static final String[] FRAGMENTS = {
            "'", "\"", "`", "\\", "/*", "*/", "/*!", "/*!50000", "/*+", "/*+ shardgate ", "primary", "max_lag_ms=",
            "--", "-- ", "#", "\n", ";", "(", ")", "@", "@@", ":=", "=", ",", ".", "SELECT", "FOR", "UPDATE", "WITH",
            "SET", "autocommit", "INTO", "GET_LOCK(", "NEXT", "VALUE", "READ", "ONLY", "START", "TRANSACTION",
            "CREATE", "TEMPORARY", "DROP", "BEGIN", "1", "0", "1e", "e+", " ", "\u0000", "\u00a0", "\uD83D", "€",
    };

    @Test
    void tenThousandRandomStringsNeverThrow() {
        Random random = new Random(20261123L);
        StatementClassifier classifier = new StatementClassifier();
        for (int i = 0; i < 10_000; i++) {
            String sql = randomSql(random);
            Classification classification = classifier.classify(sql);
            assertThat(classification).as(sql).isNotNull();
            ReadWriteDecision.decide(classification, new SessionRoutingState(
                    random.nextBoolean(), random.nextBoolean(), random.nextBoolean(), random.nextBoolean()), classification.hints());
            SqlLexer lexer = new SqlLexer(sql);
            int tokens = 0;
            while (lexer.next() != TokenType.END) {
                assertThat(lexer.end()).as(sql).isGreaterThan(lexer.start());
                tokens++;
            }
            assertThat(tokens).as(sql).isLessThanOrEqualTo(sql.length());
        }
    }

    private static String randomSql(Random random) {
        StringBuilder sql = new StringBuilder();
        int parts = random.nextInt(30);
        for (int p = 0; p < parts; p++) {
            if (random.nextBoolean()) {
                sql.append(FRAGMENTS[random.nextInt(FRAGMENTS.length)]);
            }
            else {
                sql.append((char) random.nextInt(random.nextBoolean() ? 128 : 0x10000));
            }
        }
        return sql.toString();
    }
}
