package io.shardgate.tools.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MoveBenchTest {
    @Test
    void defaultsAreAMillionRowsTenSecondsBeforeAndTwoThreads() {
        assertThat(MoveBench.Options.parse(List.of())).isEqualTo(new MoveBench.Options(1_000_000, 10, 2, null));
        assertThat(MoveBench.Options.parse(List.of("--rows", "20000", "--time-before", "3", "--threads", "1", "--proxy-jar", "p.jar")))
                .isEqualTo(new MoveBench.Options(20_000, 3, 1, Path.of("p.jar")));
    }

    @Test
    void refusesUnknownArgumentsAndNonPositiveNumbers() {
        assertThatThrownBy(() -> MoveBench.Options.parse(List.of("--skip-trx"))).hasMessage("unknown argument '--skip-trx'");
        assertThatThrownBy(() -> MoveBench.Options.parse(List.of("--rows", "-1")))
                .hasMessage("--rows needs a positive whole number, not '-1'");
        assertThatThrownBy(() -> MoveBench.Options.parse(List.of("--proxy-jar"))).hasMessage("--proxy-jar needs a path");
    }

    @Test
    void theMoveRequestNamesSourceTargetEngineAndTables() throws Exception {
        JsonNode body = new ObjectMapper().readTree(JobsApi.moveRequest("s0", "s1", "rocksdb", List.of("sbtest.sbtest1", "sbtest.probe")));
        assertThat(body.toString()).isEqualTo("{\"kind\":\"move\",\"spec\":{\"source\":\"s0\",\"target\":\"s1\",\"engine\":\"rocksdb\","
                + "\"tables\":[\"sbtest.sbtest1\",\"sbtest.probe\"]}}");
    }
}
