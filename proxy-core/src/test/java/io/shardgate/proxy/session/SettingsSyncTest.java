package io.shardgate.proxy.session;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SettingsSyncTest {

    private static SessionSettings settings(Map<String, String> system, Map<String, String> user) {
        return new SessionSettings(SessionVariables.of(system), SessionVariables.of(user));
    }

    @Test
    void nothingToDoWhenSettingsMatch() {
        SessionSettings a = settings(Map.of("time_zone", "+02:00"), Map.of("x", "5"));
        assertThat(SettingsSync.statement(a, a)).isEmpty();
        assertThat(SettingsSync.statement(a, settings(Map.of("time_zone", "+02:00"), Map.of("x", "5")))).isEmpty();
        assertThat(SettingsSync.statement(SessionSettings.DEFAULTS, SessionSettings.DEFAULTS)).isEmpty();
    }

    @Test
    void setsWhatDiffersResetsWhatTheSessionNeverChanged() {
        SessionSettings connection = settings(Map.of("wait_timeout", "100", "time_zone", "+01:00"), Map.of("old", "1", "x", "2"));
        SessionSettings session = settings(Map.of("time_zone", "+02:00", "sql_mode", "ANSI_QUOTES"), Map.of("x", "3"));
        assertThat(SettingsSync.statement(connection, session)).contains(
                "SET SESSION sql_mode='ANSI_QUOTES', SESSION time_zone='+02:00', SESSION wait_timeout=DEFAULT, @`x`=3, @`old`=NULL");
    }

    @Test
    void valuesAreQuotedSafely() {
        assertThat(SettingsSync.systemValue("wait_timeout", "28800")).isEqualTo("28800");
        assertThat(SettingsSync.systemValue("autocommit", "OFF")).isEqualTo("'OFF'");
        assertThat(SettingsSync.systemValue("character_set_results", "")).isEqualTo("NULL");
        assertThat(SettingsSync.systemValue("sql_mode", "")).isEqualTo("''");
        // A quote or a backslash cannot break out or depend on NO_BACKSLASH_ESCAPES.
        assertThat(SettingsSync.systemValue("init", "a'b\\\\c")).isEqualTo("CONVERT(X'6127625c5c63' USING utf8mb4)");
        assertThat(SettingsSync.userVariable("we`ird")).isEqualTo("@`we``ird`");
    }

    @Test
    void readOnlyAndShardgatesOwnVariablesAreNeverReplayed() {
        assertThat(SettingsSync.replayed("last_gtid")).isFalse();
        assertThat(SettingsSync.replayed("session_track_system_variables")).isFalse();
        // Every session_track_* is Shardgate's: a client's value never reaches another connection.
        assertThat(SettingsSync.replayed("session_track_gtids")).isFalse();
        assertThat(SettingsSync.replayed("session_track_transaction_info")).isFalse();
        assertThat(SettingsSync.replayed("time_zone")).isTrue();
    }
}
