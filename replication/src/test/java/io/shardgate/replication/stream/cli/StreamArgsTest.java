package io.shardgate.replication.stream.cli;

import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.stream.ChangeStream;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StreamArgsTest {
    private static final List<String> REQUIRED = List.of("--source", "h1:3307", "--target", "h2:3308", "--user", "u",
            "--password", "p");

    @Test
    void defaults() {
        StreamArgs args = StreamArgs.parse(REQUIRED);
        assertThat(args.from()).isNull();
        assertThat(args.until()).isNull();
        assertThat(args.schemas()).isEmpty();
        assertThat(args.workers()).isEqualTo(4);
        assertThat(args.progressSeconds()).isEqualTo(5);
    }

    @Test
    void everyOption() {
        List<String> all = new java.util.ArrayList<>(REQUIRED);
        all.addAll(List.of("--from-gtid", "0-1-5,1-2-3", "--until-gtid", "0-1-9", "--schemas", "a, b", "--workers", "8",
                "--progress-seconds", "2"));
        StreamArgs args = StreamArgs.parse(all);
        assertThat(args.from()).isEqualTo(MariaDbGtidPosition.parse("0-1-5,1-2-3"));
        assertThat(args.until()).isEqualTo(MariaDbGtidPosition.parse("0-1-9"));
        assertThat(args.schemas()).containsExactlyInAnyOrder("a", "b");
        assertThat(args.workers()).isEqualTo(8);
        assertThat(args.progressSeconds()).isEqualTo(2);
    }

    @Test
    void errorsSayWhatIsWrong() {
        assertThatThrownBy(() -> StreamArgs.parse(List.of("--source", "h:1"))).hasMessageContaining("are required");
        assertThatThrownBy(() -> StreamArgs.parse(List.of("--bogus", "1"))).hasMessageContaining("unknown option --bogus");
        assertThatThrownBy(() -> StreamArgs.parse(List.of("--workers"))).hasMessageContaining("--workers needs a value");
        assertThatThrownBy(() -> StreamArgs.parse(List.of("--workers", "x"))).hasMessageContaining("must be a number");
        assertThatThrownBy(() -> StreamArgs.parse(List.of("--from-gtid", "0-1"))).hasMessageContaining("DOMAIN-SERVER-SEQUENCE");
    }

    @Test
    void summaryIsOneJsonLine() {
        String json = StreamCommand.summary(new ChangeStream.Result(12, 40, Duration.ofMillis(3200),
                MariaDbGtidPosition.parse("0-1-42,3-2-7")));
        assertThat(json).isEqualTo("{\"transactions\":12,\"rows\":40,\"seconds\":3.200,\"gtid\":{\"0\":\"0-1-42\",\"3\":\"3-2-7\"}}");
    }

    @Test
    void endpointsAreHostColonPortAndHideThePassword() {
        io.shardgate.replication.stream.ServerEndpoint endpoint =
                io.shardgate.replication.stream.ServerEndpoint.parse("db-1.local:3307", "u", "secret");
        assertThat(endpoint.host()).isEqualTo("db-1.local");
        assertThat(endpoint.port()).isEqualTo(3307);
        assertThat(endpoint.toString()).isEqualTo("u@db-1.local:3307").doesNotContain("secret");
        assertThatThrownBy(() -> io.shardgate.replication.stream.ServerEndpoint.parse("nohost", "u", "p"))
                .hasMessageContaining("must be HOST:PORT");
        assertThatThrownBy(() -> io.shardgate.replication.stream.ServerEndpoint.parse("h:99999", "u", "p"))
                .hasMessageContaining("not a TCP port");
    }
}
