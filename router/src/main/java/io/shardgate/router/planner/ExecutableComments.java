package io.shardgate.router.planner;

import io.shardgate.errors.ErrorCode;

/**
 * The server runs the content of {@code /*! ... *}{@code /} as SQL, but Druid skips it in places (it
 * would not see {@code SELECT * FROM t /*!50000 WHERE a = 1 *}{@code /}'s WHERE). So Druid parses the
 * statement with the markers replaced by spaces: the same length, so positions still match the
 * tokens, and the same meaning the server gives it. MariaDB's own {@code /*M!} comments are refused:
 * the planner's lexer, like MySQL, reads them as comments.
 */
final class ExecutableComments {
    private ExecutableComments() {
    }

    static String reveal(String sql) {
        if (!sql.contains("/*")) {
            return sql;
        }
        char[] out = sql.toCharArray();
        int n = out.length;
        boolean executable = false;
        for (int i = 0; i < n; i++) {
            char c = out[i];
            if (c == '\'' || c == '"' || c == '`') {
                i = skipQuoted(out, i, c);
            }
            else if (c == '#' || (c == '-' && i + 2 < n && out[i + 1] == '-' && out[i + 2] <= ' ')) {
                while (i < n && out[i] != '\n') {
                    i++;
                }
            }
            else if (c == '/' && i + 1 < n && out[i + 1] == '*') {
                if (i + 2 < n && out[i + 2] == 'M' && i + 3 < n && out[i + 3] == '!') {
                    throw ErrorCode.UNSUPPORTED.exception("MariaDB executable comments (/*M! ... */) in a sharded deployment");
                }
                if (i + 2 < n && out[i + 2] == '!' && !executable) {
                    int j = i + 3;
                    while (j < n && j < i + 9 && Character.isDigit(out[j])) {
                        j++;
                    }
                    for (int k = i; k < j; k++) {
                        out[k] = ' ';
                    }
                    executable = true;
                    i = j - 1;
                }
                else {
                    int end = sql.indexOf("*/", i + 2);
                    i = end < 0 ? n : end + 1;
                }
            }
            else if (c == '*' && executable && i + 1 < n && out[i + 1] == '/') {
                out[i] = ' ';
                out[i + 1] = ' ';
                executable = false;
                i++;
            }
        }
        return new String(out);
    }

    private static int skipQuoted(char[] text, int at, char quote) {
        for (int i = at + 1; i < text.length; i++) {
            if (text[i] == '\\' && quote != '`') {
                i++;
            }
            else if (text[i] == quote) {
                if (i + 1 < text.length && text[i + 1] == quote) {
                    i++;
                }
                else {
                    return i;
                }
            }
        }
        return text.length;
    }
}
