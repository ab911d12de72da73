package io.shardgate.tools.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LoadBenchTest {
    @Test
    void defaultsAreTwoHundredInsertsOfAThousandRowsInThreeRounds() {
        LoadBench.Options options = LoadBench.Options.parse(List.of());
        assertThat(options).isEqualTo(new LoadBench.Options(1000, 200, 3));
        assertThat(options.rows()).isEqualTo(200_000);
    }

    @Test
    void readsEachOption() {
        assertThat(LoadBench.Options.parse(List.of("--rows-per-insert", "10", "--statements", "5", "--rounds", "1")))
                .isEqualTo(new LoadBench.Options(10, 5, 1));
    }

    @Test
    void refusesUnknownArgumentsAndNonPositiveNumbers() {
        assertThatThrownBy(() -> LoadBench.Options.parse(List.of("--rows", "1"))).hasMessage("unknown argument '--rows'");
        assertThatThrownBy(() -> LoadBench.Options.parse(List.of("--statements", "-1")))
                .hasMessage("--statements needs a positive whole number, not '-1'");
        assertThatThrownBy(() -> LoadBench.Options.parse(List.of("--rounds"))).hasMessage("--rounds needs a number");
    }

    @Test
    void insertsNumberTheRowsInOrderAcrossStatements() {
        List<String> inserts = LoadBench.inserts(3, 2);
        assertThat(inserts).hasSize(2);
        assertThat(inserts.get(0)).startsWith("INSERT INTO load1 (id, k, c, pad) VALUES (1,").contains("),(2,", "),(3,")
                .doesNotContain("(4,");
        assertThat(inserts.get(1)).startsWith("INSERT INTO load1 (id, k, c, pad) VALUES (4,").contains("),(6,");
        assertThat(LoadBench.inserts(3, 2)).as("the same text every run").isEqualTo(inserts);
    }

    @Test
    void oneRowInTenCarriesQuotesAndEscapesThatStayInsideItsLiteral() {
        String insert = LoadBench.inserts(10, 1).get(0);
        String tenth = insert.substring(insert.indexOf("(10,"));
        assertThat(tenth).contains("'it\\'s O''Brien\\'s \\\\share\\\\ \\\"quoted\\\"\\t");
        assertThat(insert.substring(0, insert.indexOf("(10,"))).doesNotContain("\\");
        // Unescaped, the escaped c value is 33 characters of text + 80 digits: it fits CHAR(120).
        String c = tenth.split(",", 3)[2];
        String literal = c.substring(1, c.indexOf("','"));
        String unescaped = literal.replace("''", "'").replaceAll("\\\\(.)", "$1");
        assertThat(unescaped.length()).isLessThanOrEqualTo(120);
    }

    @Test
    void medianOfOddAndEvenCounts() {
        assertThat(LoadBench.median(List.of(3.0, 1.0, 2.0))).isEqualTo(2.0);
        assertThat(LoadBench.median(List.of(4.0, 1.0, 3.0, 2.0))).isEqualTo(2.5);
    }
}
