package io.shardgate.router.planner;

import io.shardgate.errors.ShardgateException;
import io.shardgate.router.plan.Plan;
import io.shardgate.router.plan.PlanPrinter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs every case of {@code planner/*.txt} against {@link ShopSchema} (and its {@linkplain ShopSchema#columns() columns}): the plan as EXPLAIN SHARDGATE
 * prints it, or the error as {@code ERROR errno (SQLSTATE): message}.
 *
 * <p>File format: {@code ##} lines are comments; {@code @schema NAME} (or {@code @schema -} for none)
 * sets the current schema for the cases after it; a case is a {@code > SQL} line (in the SQL,
 * {@code \n} stands for a newline) followed by the expected lines, ended by a blank line.
 *
 * <p>To rewrite the files with the current output, run with {@code -Dgolden.update=true}, then read
 * the diff: every changed plan must be understood before it is committed.
 */
class PlannerGoldenTest {

    static final List<String> FILES = List.of("select.txt", "aggregate.txt", "write.txt", "partition.txt", "catalog.txt",
            "unsupported.txt");
    private static final Path DIRECTORY = Path.of("src/test/resources/planner");

    private final Planner planner = new Planner(ShopSchema.create(), ShopSchema.columns());

    record Case(String file, int line, String schema, String sql, List<String> expected) {
    }

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        for (String file : FILES) {
            List<String> lines = read(file);
            String schema = "shop";
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.startsWith("@schema ")) {
                    String name = line.substring(8).strip();
                    schema = name.equals("-") ? null : name;
                }
                else if (line.startsWith("> ")) {
                    int start = i;
                    List<String> expected = new ArrayList<>();
                    while (i + 1 < lines.size() && !lines.get(i + 1).isEmpty()) {
                        expected.add(lines.get(++i));
                    }
                    cases.add(new Case(file, start + 1, schema, line.substring(2).replace("\\n", "\n"), expected));
                }
            }
        }
        return cases;
    }

    static List<Arguments> arguments() {
        return cases().stream().map(c -> Arguments.of(c.file() + ":" + c.line(), c)).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("arguments")
    void plansAsTheGoldenFileSays(String where, Case golden) {
        assertThat(String.join("\n", actual(golden))).as("%s: %s", where, golden.sql()).isEqualTo(String.join("\n", golden.expected()));
    }

    @Test
    void theFilesHoldEnoughStatements() {
        List<Case> cases = cases();
        assertThat(cases).hasSizeGreaterThanOrEqualTo(120);
        assertThat(cases.stream().filter(c -> c.expected().get(0).startsWith("ERROR")).count()).isGreaterThanOrEqualTo(25);
        assertThat(cases.stream().map(c -> c.schema() + " " + c.sql()).distinct().count()).as("no duplicate cases").isEqualTo(cases.size());
    }

    /** With -Dgolden.update=true, rewrites the files with the planner's current output. */
    @Test
    void updateWhenAsked() throws IOException {
        if (!Boolean.getBoolean("golden.update")) {
            return;
        }
        for (String file : FILES) {
            List<String> lines = read(file);
            List<String> out = new ArrayList<>();
            String schema = "shop";
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                out.add(line);
                if (line.startsWith("@schema ")) {
                    String name = line.substring(8).strip();
                    schema = name.equals("-") ? null : name;
                }
                if (line.startsWith("> ")) {
                    while (i + 1 < lines.size() && !lines.get(i + 1).isEmpty()) {
                        i++;
                    }
                    out.addAll(actual(new Case(file, i, schema, line.substring(2).replace("\\n", "\n"), List.of())));
                }
            }
            Files.write(DIRECTORY.resolve(file), out, StandardCharsets.UTF_8);
        }
    }

    private List<String> actual(Case golden) {
        try {
            Plan plan = planner.plan(golden.sql(), golden.schema());
            return PlanPrinter.lines(plan.root()).stream().map(l -> l.replace("\n", "\\n")).toList();
        }
        catch (ShardgateException e) {
            return List.of("ERROR " + e.errno() + " (" + e.sqlState() + "): " + e.getMessage());
        }
        catch (RuntimeException e) {
            return List.of("BUG " + e);
        }
    }

    private static List<String> read(String file) {
        try {
            return Files.readAllLines(DIRECTORY.resolve(file), StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
