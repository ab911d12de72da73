package io.shardgate.storage.ddl;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * Opens the executable comments MariaDB runs as part of a statement, so that the validator checks
 * what the server will run. Tools write them: sysbench ends its CREATE TABLE with an executable
 * comment holding {@code ENGINE = innodb}, mysqldump wraps {@code PARTITION BY} in one, and Druid's
 * parser skips them.
 *
 * <p>MariaDB's lexer (sql_lex.cc) runs the body of a comment opened with {@code /*!} or
 * {@code /*M!}: always without a version; with a version ({@code /*!50100}: 5 or 6 digits,
 * {@code major*10000 + minor*100 + patch}) when it is at most the server's and, for {@code /*!},
 * outside 50700-99999 (MySQL 5.7 and later syntax, which MariaDB skips). Any other comment, and a
 * string or quoted name, is left as it is.
 *
 * <p>The opening marker (with its version) and the closing star-slash of each comment that runs
 * become spaces, so every offset still points at the same character of the statement as sent. An
 * unclosed one is left as written, for the parser to refuse.
 */
final class ExecutableComments {
    private static final Pattern VERSION = Pattern.compile("^(\\d+)\\.(\\d+)\\.(\\d+)");

    private ExecutableComments() {
    }

    /**
     * @param sql           the statement as the client sent it
     * @param serverVersion the shard's {@code VERSION()}, such as {@code 10.11.19-MariaDB-0+deb12u1-log}
     */
    static String open(String sql, String serverVersion) {
        requireNonNull(sql, "sql is null");
        int server = versionId(requireNonNull(serverVersion, "serverVersion is null"));
        char[] opened = sql.toCharArray();
        boolean inside = false;
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = afterQuoted(sql, i);
            } else if (c == '#' || sql.startsWith("--", i) && (i + 2 == sql.length() || sql.charAt(i + 2) <= ' ')) {
                i = after(sql, i, "\n");
            } else if (inside && sql.startsWith("*/", i)) {
                blank(opened, i, i + 2);
                inside = false;
                i += 2;
            } else if (sql.startsWith("/*", i)) {
                int marker = inside ? 0 : runningMarker(sql, i, server);
                if (marker > 0) {
                    blank(opened, i, i + marker);
                    inside = true;
                    i += marker;
                } else {
                    i = after(sql, i + 2, "*/");
                }
            } else {
                i++;
            }
        }
        return inside ? sql : new String(opened);
    }

    /**
     * MariaDB's version id of a {@code VERSION()} string: 10.11.19 is 101119. Unreadable: every
     * versioned comment counts as run, so that the validator checks more rather than less.
     */
    static int versionId(String serverVersion) {
        Matcher matcher = VERSION.matcher(serverVersion);
        if (!matcher.find()) {
            return Integer.MAX_VALUE;
        }
        return Integer.parseInt(matcher.group(1)) * 10000 + Integer.parseInt(matcher.group(2)) * 100
                + Integer.parseInt(matcher.group(3));
    }

    /** The length of {@code /*!} or {@code /*M!} and its version at {@code i} when the server runs the body; else 0. */
    private static int runningMarker(String sql, int i, int server) {
        boolean mariaDb = sql.startsWith("/*M!", i);
        if (!mariaDb && !sql.startsWith("/*!", i)) {
            return 0;
        }
        int body = i + (mariaDb ? 4 : 3);
        int digits = 0;
        while (digits < 6 && body + digits < sql.length() && Character.isDigit(sql.charAt(body + digits))) {
            digits++;
        }
        if (digits < 5) {
            return body - i;
        }
        int version = Integer.parseInt(sql.substring(body, body + digits));
        boolean runs = version <= server && (mariaDb || version < 50700 || version > 99999);
        return runs ? body + digits - i : 0;
    }

    /** Just after the string or quoted name starting at {@code i}: doubled quotes and backslash escapes stay inside. */
    private static int afterQuoted(String sql, int i) {
        char quote = sql.charAt(i);
        int j = i + 1;
        while (j < sql.length()) {
            char c = sql.charAt(j);
            if (c == '\\' && quote != '`' || c == quote && j + 1 < sql.length() && sql.charAt(j + 1) == quote) {
                j += 2;
            } else if (c == quote) {
                return j + 1;
            } else {
                j++;
            }
        }
        return sql.length();
    }

    /** Just after the next {@code end} from {@code from}, or the end of the statement. */
    private static int after(String sql, int from, String end) {
        int found = sql.indexOf(end, from);
        return found < 0 ? sql.length() : found + end.length();
    }

    private static void blank(char[] text, int from, int to) {
        for (int i = from; i < to; i++) {
            text[i] = ' ';
        }
    }
}
