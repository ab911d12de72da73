package io.shardgate.router.classify;

/** What {@link SqlLexer#next()} found. */
public enum TokenType {
    /** An unquoted word: a keyword or an identifier. */
    WORD,
    /** A {@code `backquoted`} identifier. */
    QUOTED_IDENTIFIER,
    /** A {@code 'single'} or {@code "double"} quoted string. */
    STRING,
    NUMBER,
    /** A user variable {@code @x}, {@code @'x'} or a system variable {@code @@session.x}. */
    VARIABLE,
    /** {@code :=}, or any other single punctuation character. */
    OPERATOR,
    SEMICOLON,
    END
}
