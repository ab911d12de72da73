package io.shardgate.proxy.session;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Builds the one SET statement that brings a backend connection from the settings it has to
 * the settings a session needs. System variables the session never changed but the connection
 * has go back to {@code DEFAULT} (the server's global value); user variables the connection has
 * but the session does not become NULL, which is what reading an unset variable returns.
 *
 * <p>Values are the server's own rendering from session tracking: numbers are written bare, the
 * rest as strings. A string with a backslash or a quote is written as a hex literal converted to
 * utf8mb4, so neither NO_BACKSLASH_ESCAPES nor ANSI_QUOTES can change its meaning.
 */
public final class SettingsSync {
    /** Tracked variables that are read-only or belong to Shardgate's own use of the connection. */
    private static final Set<String> NOT_REPLAYED = Set.of("last_gtid", "session_track_system_variables",
            "session_track_schema", "session_track_state_change", "session_track_transaction_info", "in_transaction",
            "warning_count", "error_count", "rand_seed1", "rand_seed2", "gtid_seq_no");
    /** Variables whose empty tracked value means NULL. */
    private static final Set<String> NULL_WHEN_EMPTY = Set.of("character_set_results");
    private static final Pattern NUMBER = Pattern.compile("-?[0-9]+(\\.[0-9]+)?");
    private static final Pattern PLAIN = Pattern.compile("[^'\\\\]*");

    private SettingsSync() {
    }

    /** Whether a system variable reported by the server is part of the session's replayable settings. */
    public static boolean replayed(String variable) {
        // Every session_track_* (MySQL's session_track_gtids too) belongs to Shardgate: a client's value is never replayed.
        return !NOT_REPLAYED.contains(variable) && !variable.regionMatches(true, 0, "session_track_", 0, 14);
    }

    /** The SET statement, or empty when the connection already has the session's settings. */
    public static Optional<String> statement(SessionSettings current, SessionSettings wanted) {
        if (current.sameAs(wanted)) {
            return Optional.empty();
        }
        StringBuilder sql = new StringBuilder("SET ");
        int start = sql.length();
        for (Map.Entry<String, String> entry : wanted.system().values().entrySet()) {
            if (!entry.getValue().equals(current.system().values().get(entry.getKey()))) {
                separate(sql, start).append("SESSION ").append(entry.getKey()).append('=')
                        .append(systemValue(entry.getKey(), entry.getValue()));
            }
        }
        for (String name : current.system().values().keySet()) {
            if (!wanted.system().values().containsKey(name)) {
                separate(sql, start).append("SESSION ").append(name).append("=DEFAULT");
            }
        }
        for (Map.Entry<String, String> entry : wanted.user().values().entrySet()) {
            if (!entry.getValue().equals(current.user().values().get(entry.getKey()))) {
                separate(sql, start).append(userVariable(entry.getKey())).append('=').append(entry.getValue());
            }
        }
        for (String name : current.user().values().keySet()) {
            if (!wanted.user().values().containsKey(name)) {
                separate(sql, start).append(userVariable(name)).append("=NULL");
            }
        }
        return sql.length() == start ? Optional.empty() : Optional.of(sql.toString());
    }

    /** {@code @`name`}, with backquotes doubled. */
    public static String userVariable(String name) {
        return "@`" + name.replace("`", "``") + "`";
    }

    static String systemValue(String name, String value) {
        if (value.isEmpty() && NULL_WHEN_EMPTY.contains(name)) {
            return "NULL";
        }
        if (NUMBER.matcher(value).matches()) {
            return value;
        }
        if (PLAIN.matcher(value).matches()) {
            return "'" + value + "'";
        }
        return "CONVERT(X'" + HexFormat.of().formatHex(value.getBytes(StandardCharsets.UTF_8)) + "' USING utf8mb4)";
    }

    private static StringBuilder separate(StringBuilder sql, int start) {
        if (sql.length() > start) {
            sql.append(", ");
        }
        return sql;
    }
}
