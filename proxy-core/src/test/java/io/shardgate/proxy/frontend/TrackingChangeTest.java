package io.shardgate.proxy.frontend;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TrackingChangeTest {

    @Test
    void mariadbConnectorsSessionSetupIsATrackingChangeWithEverythingElseReadBack() {
        // What MariaDB Connector/J 3.5 sends right after it connects (seen in the server's general log).
        String setup = "set sql_mode=CONCAT(@@sql_mode,',STRICT_TRANS_TABLES'),session_track_system_variables=CONCAT("
                + "'autocommit,character_set_client,character_set_connection,character_set_results,time_zone,tx_isolation',"
                + "IF(LOCATE('*',@@session_track_system_variables)>0 OR FIND_IN_SET('last_gtid',LOWER(REPLACE("
                + "@@session_track_system_variables,' ','')))>0,',last_gtid','')),session_track_schema=1,NAMES utf8mb4";
        TrackingChange change = TrackingChange.of(setup);
        assertThat(change).isNotNull();
        assertThat(change.onlySet()).isTrue();
        assertThat(change.assigned()).containsExactly("sql_mode", "character_set_client", "character_set_connection",
                "character_set_results", "collation_connection");
        assertThat(change.readBackQuery()).isEqualTo("SELECT @@SESSION.sql_mode, @@SESSION.character_set_client, "
                + "@@SESSION.character_set_connection, @@SESSION.character_set_results, @@SESSION.collation_connection LIMIT 1");
    }

    @Test
    void everySpellingOfASessionAssignmentCounts() {
        for (String sql : List.of("SET session_track_system_variables = ''",
                "SET SESSION session_track_schema = OFF",
                "set local Session_Track_State_Change=0",
                "SET @@session_track_transaction_info = 'STATE'",
                "SET @@session.session_track_system_variables = 'autocommit'",
                "SET @@LOCAL.session_track_gtids = OWN_GTID",
                "SET `session_track_schema` = OFF",
                "/*!40101 SET session_track_schema = OFF */",
                "SET time_zone = '+01:00', session_track_state_change = OFF",
                "SELECT 1; SET session_track_schema = OFF")) {
            assertThat(TrackingChange.of(sql)).as(sql).isNotNull();
        }
        assertThat(TrackingChange.of("SET time_zone = '+01:00', session_track_state_change = OFF").assigned()).containsExactly("time_zone");
    }

    @Test
    void namesInStringsCommentsOrOtherStatementsDoNot() {
        for (String sql : List.of("SELECT @@session_track_system_variables",
                "SELECT 'SET session_track_schema = OFF'",
                "SET @note = 'session_track_schema = OFF'",
                "SET sql_mode = '' /* session_track_schema = OFF */",
                "SET GLOBAL session_track_system_variables = ''",
                "SET @@global.session_track_schema = OFF",
                "SET @session_track_schema = 0",
                "INSERT INTO t (session_track_schema) VALUES (0)",
                "SET sql_mode = ''",
                "")) {
            assertThat(TrackingChange.of(sql)).as(sql).isNull();
        }
    }

    @Test
    void onlyPlainSetsAreReadBackElseTheSessionKeepsItsConnection() {
        TrackingChange sets = TrackingChange.of("SET LOCAL session_track_system_variables = 'time_zone'; SET sql_mode = 'ANSI', "
                + "@u = (SELECT 1, 2), @@session.wait_timeout = 10, GLOBAL max_connections = 5");
        assertThat(sets.onlySet()).isTrue();
        assertThat(sets.assigned()).containsExactly("sql_mode", "wait_timeout");
        assertThat(TrackingChange.of("SET session_track_schema = OFF; USE other").onlySet()).isFalse();
        assertThat(TrackingChange.of("SET session_track_schema = OFF; CALL p()").onlySet()).isFalse();
        assertThat(TrackingChange.of("SET STATEMENT session_track_schema = OFF FOR SELECT 1").onlySet()).isFalse();
        // A quoted name Shardgate will not put into a query of its own.
        assertThat(TrackingChange.of("SET session_track_schema = OFF, `a``, (SELECT 1)` = 1").onlySet()).isFalse();
    }

    @Test
    void trackingVariablesAreRecognisedByName() {
        assertThat(TrackingChange.isTrackingVariable("session_track_system_variables")).isTrue();
        assertThat(TrackingChange.isTrackingVariable("SESSION_TRACK_GTIDS")).isTrue();
        assertThat(TrackingChange.isTrackingVariable("sql_mode")).isFalse();
    }
}
