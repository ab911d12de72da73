package io.shardgate.tools.bench;

import io.shardgate.replication.gtid.MariaDbGtidPosition;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Argument errors end the bench with status 2 before any server starts. */
class ApplyBenchTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) throws Exception {
        return new ApplyBench().run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void unknownArgument() throws Exception {
        assertThat(run("--time", "5")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo(
                "shardgate bench apply: unknown argument '--time' (expected: [--transactions N] [--schemas N] [--threads N]"
                        + " [--warmup N] [--appliers sg1,sg4,mdb1,mdb4])"
                        + System.lineSeparator());
        assertThat(out.size()).isZero();
    }

    @Test
    void missingOrBadValues() throws Exception {
        assertThat(run("--transactions")).isEqualTo(2);
        assertThat(run("--schemas", "four")).isEqualTo(2);
        assertThat(run("--threads", "0")).isEqualTo(2);
        assertThat(run("--appliers", "sg1,sg9")).isEqualTo(2);
        assertThat(run("--warmup", "-1")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("unknown applier 'sg9' (sg1, sg4, mdb1, mdb4)")
                .contains("--transactions needs a value")
                .contains("--schemas needs a number, not 'four'")
                .contains("--transactions, --schemas and --threads must be positive")
                .contains("--warmup must not be negative");
    }

    @Test
    void warmUpPrefixIsCutPerDomainAndNeverPastTheEnd() {
        MariaDbGtidPosition end = MariaDbGtidPosition.parse("0-1-70028,2-5-100");
        assertThat(ApplyBench.prefix(end, 15_000)).hasToString("0-1-15000,2-5-100");
        assertThat(ApplyBench.prefix(end, 80_000)).isEqualTo(end);
    }
}
