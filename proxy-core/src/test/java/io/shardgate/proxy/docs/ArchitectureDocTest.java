package io.shardgate.proxy.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps docs/architecture.md's "path a query takes" true: it names at most six files, and every
 * proxy-core class the section names (as {@code `package/Class`}) exists, so a rename that forgets
 * the document fails here.
 */
class ArchitectureDocTest {
    private static final Path DOC = Path.of("..", "docs", "architecture.md");
    private static final Path SOURCES = Path.of("src", "main", "java", "io", "shardgate", "proxy");
    private static final Pattern TABLE_ROW = Pattern.compile("^\\| (\\d+) \\| `([a-z]+/[A-Za-z]+)` \\|");
    private static final Pattern CLASS_REFERENCE = Pattern.compile("`([a-z]+(?:/[a-z]+)?/[A-Z][A-Za-z]+)`");

    @Test
    void theQueryPathNamesAtMostSixFilesThatExist() throws IOException {
        String section = section();
        List<String> steps = new ArrayList<>();
        for (String line : section.split("\n")) {
            Matcher row = TABLE_ROW.matcher(line);
            if (row.find()) {
                steps.add(row.group(2));
            }
        }
        assertThat(steps).as("the numbered files of the query path").hasSizeBetween(1, 6);
        for (String step : steps) {
            assertThat(SOURCES.resolve(step + ".java")).as("query path step %s", step).isRegularFile();
        }
    }

    @Test
    void everyProxyClassTheSectionNamesExists() throws IOException {
        Matcher reference = CLASS_REFERENCE.matcher(section());
        int checked = 0;
        while (reference.find()) {
            String name = reference.group(1);
            if (name.startsWith("router/")) {
                continue; // another module's class
            }
            assertThat(SOURCES.resolve(name + ".java")).as("docs/architecture.md names %s", name).isRegularFile();
            checked++;
        }
        assertThat(checked).isGreaterThan(6);
    }

    private static String section() throws IOException {
        assertThat(DOC).as("docs/architecture.md, relative to %s", Path.of("").toAbsolutePath()).isRegularFile();
        String doc = Files.readString(DOC);
        int start = doc.indexOf("## The path a query takes");
        int end = doc.indexOf("## Sessions and pooled connections");
        assertThat(start).as("the section's heading").isNotNegative();
        assertThat(end).as("the next section's heading").isGreaterThan(start);
        return doc.substring(start, end);
    }
}
