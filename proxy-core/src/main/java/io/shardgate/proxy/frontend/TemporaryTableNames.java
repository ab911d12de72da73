package io.shardgate.proxy.frontend;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The table names a statement creates as temporary tables or drops, so a session stays on its
 * connection exactly while it has temporary tables. Names are compared without schema and case:
 * a DROP of {@code t} in another schema unpins a session whose {@code t} still exists, the only
 * imprecision, and it errs toward keeping the connection only for the other table's lifetime.
 * Only statements the classifier marked as touching temporary tables, or starting with DROP, reach here.
 */
final class TemporaryTableNames {
    private static final String NAME = "(?:`[^`]+`|[\\w$]+)(?:\\s*\\.\\s*(?:`[^`]+`|[\\w$]+))?";
    private static final Pattern CREATE = Pattern.compile(
            "\\s*CREATE\\s+(?:OR\\s+REPLACE\\s+)?TEMPORARY\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?(" + NAME + ")",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern DROP = Pattern.compile(
            "\\s*DROP\\s+(?:TEMPORARY\\s+)?TABLES?\\s+(?:IF\\s+EXISTS\\s+)?(" + NAME + "(?:\\s*,\\s*" + NAME + ")*)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern ONE = Pattern.compile(NAME);

    private TemporaryTableNames() {
    }

    /** What one statement does to the session's temporary tables. */
    record Change(String created, List<String> dropped) {
    }

    /** The change {@code sql} makes, or null when it creates and drops nothing. Cheap for other statements. */
    static Change of(String sql, boolean temporaryCreateOrDrop) {
        if (!temporaryCreateOrDrop && !SqlText.startsWithIgnoreCase(sql, "drop")) {
            return null;
        }
        String created = created(sql);
        List<String> dropped = dropped(sql);
        return created == null && dropped.isEmpty() ? null : new Change(created, dropped);
    }

    /** The temporary table a CREATE TEMPORARY TABLE creates; null when the statement is not one. */
    static String created(String sql) {
        Matcher m = CREATE.matcher(sql);
        return m.lookingAt() ? normalize(m.group(1)) : null;
    }

    /** The tables a DROP [TEMPORARY] TABLE drops; empty when the statement is not one. */
    static List<String> dropped(String sql) {
        Matcher m = DROP.matcher(sql);
        if (!m.lookingAt()) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        Matcher one = ONE.matcher(m.group(1));
        while (one.find()) {
            names.add(normalize(one.group()));
        }
        return names;
    }

    private static final Pattern PARTS = Pattern.compile(
            "(?:`([^`]+)`|([\\w$]+))(?:\\s*\\.\\s*(?:`([^`]+)`|([\\w$]+)))?");

    /** The table part of {@code [schema.]table}, unquoted and lower case. */
    private static String normalize(String name) {
        Matcher m = PARTS.matcher(name);
        if (!m.matches()) {
            return name.toLowerCase(Locale.ROOT);
        }
        String table = m.group(3) != null ? m.group(3) : m.group(4) != null ? m.group(4) : m.group(1) != null ? m.group(1) : m.group(2);
        return table.toLowerCase(Locale.ROOT);
    }
}
