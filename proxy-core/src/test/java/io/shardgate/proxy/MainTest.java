package io.shardgate.proxy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Exit status and where the usage goes: {@code --help} on stdout with 0, bad arguments on stderr with 2. */
class MainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Main.run(Arrays.asList(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "run --help|usage: shardgate run --config FILE",
            "run -h|usage: shardgate run --config FILE",
            "stream --help|usage: stream --source HOST:PORT --target HOST:PORT --user U --password P",
            "stream --source 127.0.0.1:1 --help|usage: stream --source HOST:PORT",
            "checksum --help|usage: shardgate checksum --config FILE schema.table",
            "--help|usage: shardgate <command> [options]",
            "help|usage: shardgate <command> [options]",
    })
    void helpPrintsTheUsageOnStdoutAndExitsZero(String args, String usage) {
        // Nothing starts: --help never reaches the command (run would need --config). Demo and bench: ToolsMainTest.
        assertThat(run(args.split(" "))).as(err()).isZero();
        assertThat(out()).contains(usage);
        assertThat(err()).isEmpty();
    }

    @Test
    void everyCommandInTheOverviewHasItsOwnHelp() {
        for (String command : List.of("run", "stream", "checksum")) {
            assertThat(Main.USAGE).contains("  " + command + " ");
            assertThat(Main.COMMAND_USAGE).containsKey(command);
        }
        assertThat(Main.USAGE).contains("--help");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "run|--config FILE is required|usage: shardgate run --config FILE",
            "run --nope x|unknown option '--nope'|usage: shardgate run --config FILE",
            "stream --source|--source needs a value|usage: stream --source HOST:PORT",
            "checksum|give --config FILE and schema.table|usage: shardgate checksum",
            "frobnicate|unknown command 'frobnicate'|usage: shardgate <command>",
    })
    void badArgumentsPrintTheUsageOnStderrAndExitTwo(String args, String message, String usage) {
        assertThat(run(args.split(" "))).isEqualTo(2);
        assertThat(err()).contains(message).contains(usage);
        assertThat(out()).isEmpty();
    }

    /** The demo and the benches start MariaDB servers: the production jar has neither and says where they are. */
    @ParameterizedTest
    @CsvSource({"demo", "bench", "bench split"})
    void demoAndBenchNameTheToolsJar(String args) {
        assertThat(run(args.split(" "))).isEqualTo(2);
        assertThat(err()).contains("not in this jar").contains("./shardgate " + args.split(" ")[0])
                .contains("tools/target/shardgate-tools.jar");
        assertThat(Main.USAGE).contains("tools/target/shardgate-tools.jar");
        assertThat(out()).isEmpty();
    }

    @Test
    void noArgumentsPrintTheUsageOnStderrAndExitTwo() {
        assertThat(run()).isEqualTo(2);
        assertThat(err()).contains("usage: shardgate <command> [options]");
    }
}
