package io.shardgate.proxy.sharding;

import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

import static org.assertj.core.api.Assertions.assertThat;

class FailureTextTest {

    @Test
    void aPoolTimeoutNamesTheFailureBehindIt() {
        SQLException timeout = new SQLTransientConnectionException("pool - Connection is not available, request timed out after 5003ms");
        timeout.initCause(new SQLException("Access denied for user 'shardgate'"));

        assertThat(FailureText.of(timeout)).isEqualTo("pool - Connection is not available, request timed out after 5003ms"
                + " (caused by: Access denied for user 'shardgate')");
    }

    @Test
    void aMessageThatAlreadySaysItIsLeftAlone() {
        RuntimeException wrapped = new RuntimeException("java.sql.SQLException: gone", new SQLException("gone"));

        assertThat(FailureText.of(wrapped)).isEqualTo("java.sql.SQLException: gone");
        assertThat(FailureText.of(new IllegalStateException("plain"))).isEqualTo("plain");
    }
}
