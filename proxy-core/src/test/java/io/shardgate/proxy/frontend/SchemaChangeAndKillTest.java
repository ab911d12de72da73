package io.shardgate.proxy.frontend;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SchemaChangeAndKillTest {

    @Test
    void schemaChanges() {
        assertThat(SchemaChange.ofQuery("SELECT c FROM sbtest1 WHERE id=5")).isEqualTo(SchemaChange.NONE);
        assertThat(SchemaChange.ofQuery(" use `shop`;")).isEqualTo(SchemaChange.to("shop"));
        assertThat(SchemaChange.ofQuery("SELECT 1; USE other").kind()).isEqualTo(SchemaChange.Kind.UNKNOWN);
        assertThat(SchemaChange.ofQuery("DROP DATABASE shop").kind()).isEqualTo(SchemaChange.Kind.UNKNOWN);
        assertThat(SchemaChange.ofQuery("SELECT 'no schema change here'")).isEqualTo(SchemaChange.NONE);
    }

    @Test
    void killStatements() {
        assertThat(KillStatement.parse("  kill query 12;")).contains(new KillStatement(12, true));
        assertThat(KillStatement.parse("KILL CONNECTION 7")).contains(new KillStatement(7, false));
        assertThat(KillStatement.parse("KILL 7")).contains(new KillStatement(7, false));
        assertThat(KillStatement.parse("SELECT 'KILL 7'")).isEmpty();
        assertThat(KillStatement.parse("")).isEmpty();
    }
}
