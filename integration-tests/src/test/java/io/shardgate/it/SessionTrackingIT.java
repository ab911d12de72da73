package io.shardgate.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Shardgate learns what a statement changed from the server's session tracking, which it turns on
 * for every pooled connection. A client that narrows or switches off that tracking (MariaDB
 * Connector/J does so right after it connects; any client may with SET) must not blind the proxy:
 * with one pooled connection shared by two sessions, each session keeps its own sql_mode, and the
 * connection keeps the proxy's tracking for the next session.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SessionTrackingIT {
    private ProxyFixture proxy;

    @BeforeAll
    void start() {
        proxy = ProxyFixture.withOwnShard(Map.of(), "limits: { max_backend_connections: 1, backend_acquire_timeout_ms: 5000 }\n",
                "CREATE DATABASE st", "CREATE TABLE st.t (id INT PRIMARY KEY, v VARCHAR(20))");
    }

    @AfterAll
    void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    private static String one(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            assertThat(r.next()).isTrue();
            return r.getString(1);
        }
    }

    private static void run(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** Two sessions take turns on the one pooled connection; each must see only its own sql_mode. */
    private void assertSqlModeFollowsEachSession(Connection narrowing, Connection other) throws SQLException {
        run(other, "SET sql_mode = 'ANSI_QUOTES'");
        assertThat(one(narrowing, "SELECT @@sql_mode")).as("a session that never set ANSI_QUOTES").doesNotContain("ANSI_QUOTES");
        assertThat(one(other, "SELECT @@sql_mode")).isEqualTo("ANSI_QUOTES");
        run(narrowing, "SET sql_mode = 'NO_BACKSLASH_ESCAPES'");
        assertThat(one(other, "SELECT @@sql_mode")).isEqualTo("ANSI_QUOTES");
        assertThat(one(narrowing, "SELECT @@sql_mode")).isEqualTo("NO_BACKSLASH_ESCAPES");
        // The text a string literal means depends on the session's own mode.
        assertThat(one(narrowing, "SELECT 'a\\b'")).isEqualTo("a\\b");
        assertThat(one(other, "SELECT \"v\" FROM (SELECT 'x' AS v) d")).isEqualTo("x");
        // The connection still reports every variable to the proxy, whatever the sessions asked for.
        assertThat(one(other, "SELECT @@session.session_track_system_variables")).isEqualTo("*");
        assertThat(one(other, "SELECT CONCAT(@@session.session_track_schema, @@session.session_track_state_change)")).isEqualTo("ONON");
        assertThat(one(other, "SELECT @@session.session_track_transaction_info")).isEqualTo("OFF");
    }

    @Test
    void mariadbConnectorNarrowingTrackingLosesNoSetting() throws Exception {
        // Both sessions through the same driver and options: the pool keeps one connection per response shape.
        try (Connection narrowing = proxy.mariadb("st", ""); Connection other = proxy.mariadb("st", "")) {
            assertSqlModeFollowsEachSession(narrowing, other);
        }
    }

    /** Shardgate's own queries on a connection (reading user variables back) must not obey the client's sql_select_limit. */
    @Test
    void aClientsSelectLimitDoesNotHideUserVariablesFromShardgate() throws Exception {
        try (Connection a = proxy.mariadb("st", ""); Connection b = proxy.mariadb("st", "")) {
            run(a, "SET sql_select_limit = 0");
            run(a, "SET @v = 5");
            run(a, "SET sql_select_limit = DEFAULT");
            run(b, "SET @v = 6");
            assertThat(one(b, "SELECT @v")).isEqualTo("6");
            assertThat(one(a, "SELECT @v")).isEqualTo("5");
        }
    }

    @Test
    void preparedSetOfTheTrackingLosesNoSetting() throws Exception {
        try (Connection a = proxy.mariadb("st", "useServerPrepStmts=true"); Connection b = proxy.mariadb("st", "")) {
            try (PreparedStatement narrowing = a.prepareStatement(
                    "SET session_track_system_variables = ?, session_track_state_change = OFF")) {
                narrowing.setString(1, "");
                narrowing.execute();
            }
            assertSqlModeFollowsEachSession(a, b);
        }
    }

    @Test
    void clientSwitchingTrackingOffLosesNoSetting() throws Exception {
        String[] narrowings = {
                "SET SESSION session_track_system_variables = ''",
                "SET session_track_system_variables = '', session_track_state_change = OFF",
                // Two statements: the second runs with the state-change flag already off.
                "SET session_track_state_change = OFF|SET session_track_system_variables = ''",
                "SET @@session.session_track_system_variables = 'autocommit', session_track_schema = OFF",
                "SET session_track_state_change = OFF, @@session_track_transaction_info = 'STATE'",
                "SET LOCAL session_track_system_variables = 'time_zone'; SET sql_mode = 'NO_BACKSLASH_ESCAPES'",
        };
        for (String narrowing : narrowings) {
            try (Connection a = proxy.mysql("st", "sslMode=DISABLED&allowMultiQueries=true");
                 Connection b = proxy.mysql("st", "sslMode=DISABLED&allowMultiQueries=true")) {
                for (String statement : narrowing.split("\\|")) {
                    run(a, statement);
                }
                assertSqlModeFollowsEachSession(a, b);
            }
            try (Connection a = proxy.mariadb("st", "allowMultiQueries=true");
                 Connection b = proxy.mariadb("st", "allowMultiQueries=true")) {
                for (String statement : narrowing.split("\\|")) {
                    run(a, statement);
                }
                assertSqlModeFollowsEachSession(a, b);
            }
        }
    }
}
