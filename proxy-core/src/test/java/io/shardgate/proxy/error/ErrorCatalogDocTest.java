package io.shardgate.proxy.error;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardgate.errors.ErrorCode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Keeps docs/errors.md in step with {@link ErrorCode}: one table row per code, with its errno,
 * SQLSTATE, template, and whether {@link ErrorTranslator} closes the connection.
 */
class ErrorCatalogDocTest {
    /** Surefire runs with the module directory as working directory. */
    private static final Path DOC = Path.of("..", "docs", "errors.md");
    private static final Pattern ROW = Pattern.compile("^\\| `([A-Z_]+)` \\|(.*)\\|\\s*$");

    private static Map<String, List<String>> rows;

    @BeforeAll
    static void readTheTable() throws IOException {
        assertThat(DOC).as("docs/errors.md, relative to %s", Path.of("").toAbsolutePath()).isRegularFile();
        rows = new LinkedHashMap<>();
        for (String line : Files.readAllLines(DOC, StandardCharsets.UTF_8)) {
            Matcher matcher = ROW.matcher(line);
            if (matcher.matches()) {
                List<String> cells = new ArrayList<>();
                for (String cell : matcher.group(2).split("\\|", -1)) {
                    cells.add(cell.strip());
                }
                assertThat(rows.put(matcher.group(1), cells)).as("row of %s listed twice", matcher.group(1)).isNull();
            }
        }
    }

    private static List<String> row(ErrorCode code) {
        assertThat(rows).as("docs/errors.md has a row for %s", code).containsKey(code.name());
        List<String> cells = rows.get(code.name());
        assertThat(cells).as("cells of %s: errno, SQLSTATE, template, meaning, closes", code).hasSize(5);
        return cells;
    }

    @ParameterizedTest
    @EnumSource(ErrorCode.class)
    void listsTheErrnoAndSqlState(ErrorCode code) {
        List<String> cells = row(code);
        assertThat(cells.get(0)).as("errno of %s", code).isEqualTo(Integer.toString(code.errno()));
        assertThat(cells.get(1)).as("SQLSTATE of %s", code).isEqualTo("`" + code.sqlState() + "`");
    }

    @ParameterizedTest
    @EnumSource(ErrorCode.class)
    void listsTheTemplateAndADescription(ErrorCode code) {
        List<String> cells = row(code);
        assertThat(cells.get(2)).as("template of %s", code).isEqualTo("`" + code.template() + "`");
        assertThat(cells.get(3)).as("meaning of %s", code).isNotBlank();
    }

    @ParameterizedTest
    @EnumSource(ErrorCode.class)
    void saysWhetherTheConnectionIsClosed(ErrorCode code) {
        boolean closes = new ErrorTranslator().translate(code.exception(sampleArguments(code.template()))).closeConnection();
        assertThat(row(code).get(4)).as("closes column of %s", code).isEqualTo(closes ? "yes" : "no");
    }

    @Test
    void listsNothingElse() {
        List<String> names = Arrays.stream(ErrorCode.values()).map(Enum::name).toList();
        assertThat(rows.keySet()).as("rows in docs/errors.md").containsExactlyElementsOf(names);
    }

    /**
     * One argument per conversion of the template: a number for %d, a word for %s; a positional conversion
     * (%2$s) fills its own place.
     */
    private static Object[] sampleArguments(String template) {
        List<Object> args = new ArrayList<>();
        Matcher matcher = Pattern.compile("%(?:(\\d+)\\$)?([sd])").matcher(template);
        while (matcher.find()) {
            int index = matcher.group(1) == null ? args.size() : Integer.parseInt(matcher.group(1)) - 1;
            while (args.size() <= index) {
                args.add(null);
            }
            args.set(index, matcher.group(2).equals("d") ? (Object) 1 : "x");
        }
        return args.toArray();
    }
}
