package io.shardgate.replication.stream.history;

/**
 * Opens MariaDB's executable comments ({@code /*!40101 ... *}{@code /}, {@code /*M!100100 ... *}{@code /},
 * {@code /*! ... *}{@code /}) so the parser reads their content as the server did. A character scanner,
 * not a pattern: string literals, quoted names and ordinary comments are copied unchanged.
 * Versioned content is always opened: the binlog holds what a MariaDB server ran, and every
 * version number mysqldump and MariaDB write is below the server that logged them.
 */
final class ExecutableComments {
    private ExecutableComments() {
    }

    static String open(String sql) {
        if (!sql.contains("/*!") && !sql.contains("/*M!")) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length());
        int depth = 0;
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int end = closing(sql, i, c);
                out.append(sql, i, end);
                i = end;
            } else if (sql.startsWith("/*!", i) || sql.startsWith("/*M!", i)) {
                i += sql.charAt(i + 2) == 'M' ? 4 : 3;
                while (i < n && Character.isDigit(sql.charAt(i))) {
                    i++;
                }
                out.append(' ');
                depth++;
            } else if (depth > 0 && sql.startsWith("*/", i)) {
                out.append(' ');
                depth--;
                i += 2;
            } else if (sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                out.append(sql, i, end);
                i = end;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** The index after the literal or quoted name that starts at {@code start}. */
    private static int closing(String sql, int start, char quote) {
        int i = start + 1;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\\' && quote != '`') {
                i += 2;
            } else if (c == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                } else {
                    return i + 1;
                }
            } else {
                i++;
            }
        }
        return sql.length();
    }
}
