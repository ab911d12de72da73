package io.shardgate.storage.ddl;

import com.alibaba.druid.sql.parser.Token;

import java.util.Locale;

/**
 * One token of a statement, with where it sits in the text.
 *
 * @param kind  Druid's token kind
 * @param value identifiers as written (backticks included), literals without quotes
 * @param start offset of the token (for a token right after a comment: of the comment)
 * @param end   offset just after the token
 * @param depth parentheses open before this token
 */
record SqlToken(Token kind, String value, int start, int end, int depth) {

    /** An identifier or keyword whose text is {@code word}, ignoring case and backticks. */
    boolean is(String word) {
        return value != null && unquoted().equalsIgnoreCase(word)
                && (kind == Token.IDENTIFIER || kind.name.equalsIgnoreCase(word));
    }

    String unquoted() {
        if (value == null) {
            return "";
        }
        return value.length() >= 2 && value.startsWith("`") && value.endsWith("`")
                ? value.substring(1, value.length() - 1) : value;
    }

    String upper() {
        return unquoted().toUpperCase(Locale.ROOT);
    }
}
