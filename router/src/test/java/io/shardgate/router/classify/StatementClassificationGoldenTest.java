package io.shardgate.router.classify;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs every row of {@code classify/statements.tsv}; the file's header says how it is laid out. */
class StatementClassificationGoldenTest {

    private static final String FILE = "/classify/statements.tsv";
    private final StatementClassifier classifier = new StatementClassifier();

    record Row(int line, String sql, StatementClass expectedClass, String expectedDetails, String notes) {
    }

    static List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        String[] lines = read().split("\n", -1);
        boolean header = true;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.isEmpty() || line.startsWith("##")) {
                continue;
            }
            if (header) {
                assertThat(line).isEqualTo("sql\tclass\tdetails\tnotes");
                header = false;
                continue;
            }
            String[] columns = line.split("\t", -1);
            assertThat(columns).as("line %d: four tab-separated columns", i + 1).hasSize(4);
            rows.add(new Row(i + 1, unescape(columns[0]), StatementClass.valueOf(columns[1]), columns[2], columns[3]));
        }
        return rows;
    }

    static List<Arguments> statements() {
        return rows().stream().map(row -> Arguments.of(row.line(), row.sql(), row)).toList();
    }

    @ParameterizedTest(name = "line {0}: {1}")
    @MethodSource("statements")
    void classifiesAsTheGoldenFileSays(int line, String sql, Row row) {
        Classification classification = classifier.classify(sql);
        assertThat(classification.statementClass() + " " + classification.details())
                .as("line %d: %s (%s)", line, sql, row.notes())
                .isEqualTo(row.expectedClass() + " " + row.expectedDetails());
    }

    @Test
    void theFileIsBigEnoughAndCoversEveryClass() {
        List<Row> rows = rows();
        assertThat(rows).hasSizeGreaterThanOrEqualTo(200);
        assertThat(rows.stream().map(Row::expectedClass).distinct()).containsExactlyInAnyOrder(StatementClass.values());
        assertThat(rows.stream().map(Row::sql).distinct().count()).as("no duplicate statements").isEqualTo(rows.size());
    }

    private static String read() {
        try (InputStream in = StatementClassificationGoldenTest.class.getResourceAsStream(FILE)) {
            assertThat(in).as(FILE).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code \n \r \t \0 \\} in the sql column. */
    static String unescape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '\\' || i + 1 == text.length()) {
                out.append(c);
                continue;
            }
            char next = text.charAt(++i);
            switch (next) {
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case '0' -> out.append('\0');
                case '\\' -> out.append('\\');
                default -> throw new IllegalArgumentException("unknown escape \\" + next + " in " + text);
            }
        }
        return out.toString();
    }
}
