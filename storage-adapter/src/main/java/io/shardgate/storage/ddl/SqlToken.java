package io.shardgate.storage.ddl;

import com.alibaba.druid.sql.parser.Token;

import java.util.Locale;

/**
 * One token of a statement, with where it sits in the text.
 *
 * @param kind  Druid's token kind
 * @param value identifiers as written (backticks included), literals without quotes (but Druid keeps
 *              the double quotes of a {@code "string"})
 * @param start offset of the token (for a token right after a comment: of the comment)
 * @param end   offset just after the token
 * @param depth parentheses open before this token
 */
record SqlToken(Token kind, String value, int start, int end, int depth) {

    /** An identifier or keyword whose text is {@code word}, ignoring case and backticks; never a literal. */
    boolean is(String word) {
        return value != null && unquoted().equalsIgnoreCase(word)
                && (kind == Token.IDENTIFIER || word.equalsIgnoreCase(kind.name == null ? kind.name() : kind.name));
    }

    /** The value without the backticks of a quoted name or the double quotes Druid keeps on a string. */
    String unquoted() {
        if (value == null) {
            return "";
        }
        boolean quoted = value.length() >= 2 && (value.startsWith("`") && value.endsWith("`")
                || kind == Token.LITERAL_ALIAS && value.startsWith("\"") && value.endsWith("\""));
        return quoted ? value.substring(1, value.length() - 1) : value;
    }

    String upper() {
        return unquoted().toUpperCase(Locale.ROOT);
    }
}
