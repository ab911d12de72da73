package io.shardgate.proxy.frontend;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The statements the front end recognises by their tokens (DdlGate, SET TRANSACTION, SHOW WARNINGS). */
class StatementRecognitionTest {

    @Test
    void ddlTheGateChecks() {
        assertThat(DdlGate.checked("ALTER TABLE t ADD COLUMN c INT")).isTrue();
        assertThat(DdlGate.checked("/* migrate */ alter online ignore table t engine=InnoDB")).isTrue();
        assertThat(DdlGate.checked("CREATE OR REPLACE TEMPORARY TABLE t (x INT)")).isTrue();
        assertThat(DdlGate.checked("CREATE UNIQUE INDEX i ON t (x)")).isTrue();
        assertThat(DdlGate.checked("DROP INDEX i ON t")).isTrue();
        assertThat(DdlGate.checked("DROP TABLE t")).isFalse();
        assertThat(DdlGate.checked("CREATE DATABASE d")).isFalse();
        assertThat(DdlGate.checked("INSERT INTO log VALUES ('ALTER TABLE t ADD c INT')")).isFalse();
        assertThat(DdlGate.checked("SELECT 1 -- CREATE TABLE t\n")).isFalse();
    }

    @Test
    void setTransactionAndShowWarnings() {
        assertThat(StatementEnd.startsWith(" /* x */ set transaction read only", "SET", "TRANSACTION")).isTrue();
        assertThat(StatementEnd.startsWith("SET SESSION TRANSACTION READ ONLY", "SET", "TRANSACTION")).isFalse();
        assertThat(StatementEnd.startsWith("SET @v = 'TRANSACTION'", "SET", "TRANSACTION")).isFalse();
        assertThat(ShardedCommands.isShowWarnings("show warnings;")).isTrue();
        assertThat(ShardedCommands.isShowWarnings("/* app */ SHOW /* all */ WARNINGS -- please\n")).isTrue();
        assertThat(ShardedCommands.isShowWarnings("SHOW WARNINGS LIMIT 1")).isFalse();
        assertThat(ShardedCommands.isShowWarnings("SELECT 'SHOW WARNINGS'")).isFalse();
    }
}
