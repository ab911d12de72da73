package io.shardgate.router.classify;

/**
 * The words a {@link StatementDigest} upper-cases: MySQL/MariaDB keywords and common function
 * names. Every other word is an identifier and keeps its case (table names are case-sensitive on
 * Linux). Looked up from the lexer's region of the text, ignoring case, without allocating: an
 * open-addressing table filled once when the class loads and only read afterwards.
 */
final class DigestKeywords {
    private static final String[] WORDS = {
        "ACCESSIBLE", "ADD", "AFTER", "AGAINST", "ALGORITHM", "ALL", "ALTER", "ANALYZE", "AND", "ANY", "AS", "ASC",
        "AUTO_INCREMENT", "AVG", "BEGIN", "BETWEEN", "BIGINT", "BINARY", "BLOB", "BOOLEAN", "BOTH", "BY", "CALL", "CASCADE",
        "CASE", "CAST", "CHANGE", "CHAR", "CHARACTER", "CHARSET", "CHECK", "COALESCE", "COLLATE", "COLUMN", "COLUMNS",
        "COMMIT", "CONCAT", "CONSTRAINT", "CONVERT", "COUNT", "CREATE", "CROSS", "CURRENT_DATE", "CURRENT_TIME",
        "CURRENT_TIMESTAMP", "CURRENT_USER", "DATABASE", "DATABASES", "DATE", "DATETIME", "DAY", "DEALLOCATE", "DECIMAL",
        "DECLARE", "DEFAULT", "DELAYED", "DELETE", "DESC", "DESCRIBE", "DISTINCT", "DISTINCTROW", "DIV", "DO", "DOUBLE",
        "DROP", "DUPLICATE", "ELSE", "ELSEIF", "END", "ENGINE", "ENUM", "ESCAPE", "EXECUTE", "EXISTS", "EXPLAIN", "FALSE",
        "FIELDS", "FIRST", "FLOAT", "FLUSH", "FOR", "FORCE", "FOREIGN", "FROM", "FULL", "FULLTEXT", "FUNCTION", "GLOBAL",
        "GRANT", "GROUP", "GROUP_CONCAT", "HANDLER", "HAVING", "HIGH_PRIORITY", "HOUR", "IF", "IFNULL", "IGNORE", "IN",
        "INDEX", "INFILE", "INNER", "INSERT", "INT", "INTEGER", "INTERVAL", "INTO", "IS", "ISOLATION", "JOIN", "JSON",
        "KEY", "KEYS", "KILL", "LAST", "LAST_INSERT_ID", "LEADING", "LEFT", "LENGTH", "LEVEL", "LIKE", "LIMIT", "LOAD",
        "LOCAL", "LOCK", "LOCKED", "LONGTEXT", "LOW_PRIORITY", "LOWER", "MATCH", "MAX", "MEDIUMINT", "MEDIUMTEXT", "MIN",
        "MINUTE", "MOD", "MODE", "MODIFY", "MONTH", "NAMES", "NATURAL", "NEXT", "NO", "NOT", "NOW", "NOWAIT", "NULL",
        "NULLIF", "OFFSET", "ON", "ONLY", "OPTIMIZE", "OR", "ORDER", "OUTER", "OUTFILE", "OVER", "PARTITION", "PRECISION",
        "PREPARE", "PRIMARY", "PROCEDURE", "QUICK", "READ", "REAL", "REFERENCES", "REGEXP", "RELEASE", "RENAME",
        "REPEATABLE", "REPLACE", "RETURNING", "REVOKE", "RIGHT", "RLIKE", "ROLLBACK", "ROW", "ROWS", "SAVEPOINT", "SCHEMA",
        "SECOND", "SELECT", "SEPARATOR", "SERIALIZABLE", "SESSION", "SET", "SHARE", "SHOW", "SIGNED", "SKIP", "SMALLINT",
        "SOUNDS", "SQL_CALC_FOUND_ROWS", "SQL_NO_CACHE", "START", "STATUS", "STRAIGHT_JOIN", "SUBSTR", "SUBSTRING", "SUM",
        "TABLE", "TABLES", "TEMPORARY", "TEXT", "THEN", "TIME", "TIMESTAMP", "TINYINT", "TO", "TRAILING", "TRANSACTION",
        "TRIGGER", "TRIM", "TRUE", "TRUNCATE", "UNCOMMITTED", "UNION", "UNIQUE", "UNLOCK", "UNSIGNED", "UPDATE", "UPPER",
        "USE", "USING", "VALUE", "VALUES", "VARBINARY", "VARCHAR", "VARIABLES", "VIEW", "WAIT", "WARNINGS", "WHEN",
        "WHERE", "WHILE", "WINDOW", "WITH", "WORK", "WRITE", "XA", "XOR", "YEAR", "ZEROFILL",
    };
    private static final int MASK = 1023;
    private static final String[] TABLE = new String[MASK + 1];
    private static final int MAX_LENGTH = 32;

    static {
        for (String word : WORDS) {
            int slot = slot(word, 0, word.length());
            while (TABLE[slot] != null) {
                slot = (slot + 1) & MASK;
            }
            TABLE[slot] = word;
        }
    }

    private DigestKeywords() {
    }

    /** Whether {@code text[from, to)} is a keyword, ignoring case. Allocates nothing. */
    static boolean contains(CharSequence text, int from, int to) {
        if (to - from > MAX_LENGTH) {
            return false;
        }
        for (int slot = slot(text, from, to); TABLE[slot] != null; slot = (slot + 1) & MASK) {
            if (equalsIgnoreCase(TABLE[slot], text, from, to)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code text[from, to)} is NULL, TRUE, FALSE or DEFAULT: words that stand for a value. */
    static boolean isValueWord(CharSequence text, int from, int to) {
        return equalsIgnoreCase("NULL", text, from, to) || equalsIgnoreCase("TRUE", text, from, to)
                || equalsIgnoreCase("FALSE", text, from, to) || equalsIgnoreCase("DEFAULT", text, from, to);
    }

    static boolean equalsIgnoreCase(String upperCase, CharSequence text, int from, int to) {
        if (to - from != upperCase.length()) {
            return false;
        }
        for (int i = 0; i < upperCase.length(); i++) {
            if (upper(text.charAt(from + i)) != upperCase.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    static char upper(char c) {
        return c >= 'a' && c <= 'z' ? (char) (c - ('a' - 'A')) : c;
    }

    private static int slot(CharSequence text, int from, int to) {
        int h = 0;
        for (int i = from; i < to; i++) {
            h = h * 31 + upper(text.charAt(i));
        }
        h ^= h >>> 16;
        h *= 0x45d9f3b;
        h ^= h >>> 16;
        return h & MASK;
    }
}
