package io.shardgate.proxy;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code shardgate admin} through Main: listed in the overview, its usage on --help, its own bad-argument errors. */
class MainAdminTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Main.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void adminHelpPrintsItsUsageOnStdoutAndExitsZero() {
        assertThat(run("admin", "--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("usage: shardgate admin [--url URL] [--token TOKEN] [--as NAME] COMMAND");
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void theOverviewListsAdmin() {
        assertThat(Main.USAGE).contains("  admin [--url URL]").contains("docs/operations.md");
        assertThat(Main.COMMAND_USAGE).containsKey("admin");
    }

    @Test
    void aBadAdminCommandExitsTwoWithTheAdminUsage() {
        assertThat(run("admin", "frobnicate")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("shardgate admin: unknown command 'frobnicate'")
                .contains("usage: shardgate admin");
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    }
}
