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
        assertThat(KillStatement.parse("/* admin */ KILL /* which */ QUERY 12 -- now\n")).contains(new KillStatement(12, true));
        assertThat(KillStatement.parse("SELECT 1 /* KILL 7 */")).isEmpty();
        assertThat(KillStatement.parse("KILL 7 -- KILL 8\n; SELECT 1")).isEmpty();
        assertThat(KillStatement.parse("KILL 99999999999999999999999")).isEmpty();
        assertThat(KillStatement.parse("KILL 1.5")).isEmpty();
    }
}
