package io.shardgate.tools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tools jar's commands (moved here from MainTest with the demo and the benches): {@code --help} on stdout with
 * 0, bad arguments on stderr with 2, and nothing started either way.
 */
class ToolsMainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return ToolsMain.run(Arrays.asList(args), new PrintStream(out, true, StandardCharsets.UTF_8),
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
            "demo --help|usage: shardgate demo [--port P] [--admin-port P] [--cluster]",
            "bench --help|usage: shardgate bench [sysbench] [--time S]",
            "bench split --help|shardgate bench split [--time S]",
            "bench shards --help|shardgate bench shards [--time S]",
            "bench apply --help|shardgate bench apply [--transactions N]",
            "bench load --help|shardgate bench load [--rows-per-insert N] [--statements N] [--rounds N]",
            "bench memory --help|shardgate bench memory [--rows N] [--limit N] [--repeat N] [--proxy-jar PATH]",
            "bench reshard --help|shardgate bench reshard [--rows N] [--time-before S] [--threads N] [--skip-trx] [--proxy-jar PATH]",
            "bench move --help|shardgate bench move [--rows N] [--time-before S] [--threads N] [--proxy-jar PATH]",
            "--help|usage: shardgate-tools <command> [options]",
    })
    void helpPrintsTheUsageOnStdoutAndExitsZero(String args, String usage) {
        // Nothing starts: --help never reaches the command (a demo or bench would start servers).
        assertThat(run(args.split(" "))).as(err()).isZero();
        assertThat(out()).contains(usage);
        assertThat(err()).isEmpty();
    }

    @Test
    void everyCommandInTheOverviewHasItsOwnHelp() {
        for (String command : List.of("demo", "bench")) {
            assertThat(ToolsMain.USAGE).contains("  " + command + " ");
            assertThat(ToolsMain.COMMAND_USAGE).containsKey(command);
        }
        assertThat(ToolsMain.USAGE).contains("--help");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "demo --nope|unknown option '--nope'|usage: shardgate demo",
            "demo --port x|--port needs a port number, not 'x'|usage: shardgate demo",
            "run --config x.yaml|unknown command 'run'|usage: shardgate-tools <command>",
    })
    void badArgumentsPrintTheUsageOnStderrAndExitTwo(String args, String message, String usage) {
        assertThat(run(args.split(" "))).isEqualTo(2);
        assertThat(err()).contains(message).contains(usage);
        assertThat(out()).isEmpty();
    }

    @Test
    void noArgumentsPrintTheUsageOnStderrAndExitTwo() {
        assertThat(run()).isEqualTo(2);
        assertThat(err()).contains("usage: shardgate-tools <command> [options]");
    }
}
