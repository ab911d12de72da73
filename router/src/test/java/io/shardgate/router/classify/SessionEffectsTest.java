package io.shardgate.router.classify;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SessionEffectsTest {
    private final StatementClassifier classifier = new StatementClassifier();

    private SessionEffects effects(String sql) {
        return classifier.classify(sql).effects();
    }

    @Test
    void plainStatementsHaveNone() {
        assertTrue(effects("SELECT c FROM sbtest1 WHERE id = 5").isNone());
        assertTrue(effects("UPDATE t SET a = 1 WHERE b = 2").isNone());
        assertTrue(effects("SET NAMES utf8mb4").isNone());
        // Reading a user variable does not assign it.
        assertTrue(effects("SELECT * FROM t WHERE id = @x").isNone());
    }

    @Test
    void userVariablesAssignedAreNamedLowerCaseAndUnquoted() {
        assertEquals(List.of("a", "b"), effects("SET @a = 1, @B := 2").userVariables());
        assertEquals(List.of("x"), effects("SELECT @x := c FROM t").userVariables());
        assertEquals(List.of("p", "q"), effects("SELECT a, b INTO @p, @q FROM t LIMIT 1").userVariables());
        assertEquals(List.of("my var"), effects("SET @`my var` = 'v'").userVariables());
        assertEquals(List.of("s"), effects("SET @'s' = 'v'").userVariables());
        assertEquals(List.of("c1"), effects("LOAD DATA LOCAL INFILE 'f' INTO TABLE t (a, @c1) SET b = @c1").userVariables());
        assertEquals(List.of("a", "b"), effects("SET @a = 1; SET @b = @a + 1").userVariables());
    }

    @Test
    void locksAndSqlPreparedStatements() {
        assertTrue(effects("SELECT GET_LOCK('job', 10)").takesNamedLock());
        assertTrue(effects("SELECT RELEASE_ALL_LOCKS()").releasesNamedLocks());
        assertFalse(effects("SELECT RELEASE_LOCK('job')").releasesNamedLocks());
        assertTrue(effects("LOCK TABLES t WRITE").locksTables());
        assertTrue(effects("UNLOCK TABLES").unlocksTables());
        assertTrue(effects("PREPARE s FROM 'SELECT 1'").sqlPreparedStatement());
        assertTrue(effects("EXECUTE s USING @a").sqlPreparedStatement());
        assertTrue(effects("DEALLOCATE PREPARE s").sqlPreparedStatement());
        assertTrue(effects("SELECT SQL_CALC_FOUND_ROWS * FROM t LIMIT 1").calcFoundRows());
    }

    @Test
    void readsOfPerConnectionAnswers() {
        assertTrue(effects("SELECT LAST_INSERT_ID()").readsLastInsertId());
        assertTrue(effects("SELECT @@session.last_insert_id").readsLastInsertId());
        assertFalse(effects("SELECT 'last_insert_id()'").readsLastInsertId());
        assertTrue(effects("SHOW WARNINGS").readsDiagnostics());
        assertTrue(effects("show count(*) errors").readsDiagnostics());
        assertTrue(effects("GET DIAGNOSTICS @n = NUMBER").readsDiagnostics());
        assertTrue(effects("GET CURRENT DIAGNOSTICS CONDITION 1 @m = MESSAGE_TEXT").readsDiagnostics());
        assertTrue(effects("SELECT FOUND_ROWS()").readsDiagnostics());
        assertTrue(effects("SELECT @@warning_count, @@session.error_count").readsDiagnostics());
        assertFalse(effects("SHOW TABLES").readsDiagnostics());
        assertFalse(effects("SELECT 'SHOW WARNINGS'").readsDiagnostics());
    }
}
