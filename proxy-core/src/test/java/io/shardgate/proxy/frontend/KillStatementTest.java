package io.shardgate.proxy.frontend;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class KillStatementTest {

    @Test
    void killStatements() {
        assertThat(KillStatement.parse("  kill query 12;")).contains(new KillStatement(12, true));
        assertThat(KillStatement.parse("KILL CONNECTION 7")).contains(new KillStatement(7, false));
        assertThat(KillStatement.parse("KILL 7")).contains(new KillStatement(7, false));
        assertThat(KillStatement.parse("SELECT 'KILL 7'")).isEmpty();
        assertThat(KillStatement.parse("")).isEmpty();
    }
}
