package io.shardgate.router.classify;

/**
 * What one pass of the lexer over one statement noticed: its first few tokens (after any leading
 * parentheses) and the clauses anywhere in it that change its class. {@link #read} consumes the
 * statement up to its {@code ;} or the end of the input.
 *
 * Scratch state for a single {@link StatementClassifier#classify} call; never shared.
 */
final class StatementFacts {

    /** Values of a SET assignment that this classifier evaluates. */
    enum Switch { UNSET, ON, OFF, UNKNOWN }

    static final int KEPT_TOKENS = 8;

    /** Functions whose answer or effect lives on the server that ran them: upper case. */
    private static final String[] PRIMARY_FUNCTIONS = {
            "GET_LOCK", "RELEASE_LOCK", "RELEASE_ALL_LOCKS", "IS_USED_LOCK", "IS_FREE_LOCK",
            "LAST_INSERT_ID", "FOUND_ROWS", "ROW_COUNT", "NEXTVAL", "LASTVAL", "SETVAL",
    };

    /** Words that begin the main statement after a WITH clause. */
    private static final String[] WITH_MAIN_KEYWORDS = {
            "SELECT", "TABLE", "VALUES", "INSERT", "UPDATE", "DELETE", "REPLACE",
    };

    private final SqlLexer lexer;
    private final TokenType[] types = new TokenType[KEPT_TOKENS];
    private final int[] starts = new int[KEPT_TOKENS];
    private final int[] ends = new int[KEPT_TOKENS];
    int kept;
    boolean lockingClause;
    boolean primaryFunction;
    boolean into;
    boolean userVariableAssignment;
    boolean readOnlyPhrase;
    boolean readWritePhrase;
    boolean globalScope;
    boolean namedLock;
    boolean namedLocksReleased;
    boolean calcFoundRows;
    boolean readsLastInsertId;
    boolean readsDiagnostics;
    /** User variables named anywhere in the statement, lower case and unquoted; empty (and shared) when none. */
    java.util.List<String> userVariables = java.util.List.of();
    Switch autocommit;
    Switch transactionReadOnly;
    private int withMainStart;
    private int withMainEnd;

    StatementFacts(SqlLexer lexer) {
        this.lexer = lexer;
    }

    /**
     * Reads one statement, starting at the lexer's current token (which is neither {@code ;} nor the end),
     * and leaves the lexer on the {@code ;} or end that follows it.
     */
    void read() {
        reset();
        int depth = 0;
        boolean leading = true;
        boolean isWith = false;
        boolean parenthesisedWithMain = false;
        // The two previous tokens, for two- and three-token patterns.
        TokenType type1 = null;
        int start1 = 0;
        int end1 = 0;
        TokenType type2 = null;
        int start2 = 0;
        int end2 = 0;
        for (TokenType type = lexer.type(); type != TokenType.END && type != TokenType.SEMICOLON; type = lexer.next()) {
            int start = lexer.start();
            int end = lexer.end();
            if (leading && lexer.isOperator('(')) {
                continue; // parentheses around the whole statement do not count; their ')' clamps at 0
            }
            if (leading) {
                leading = false;
                isWith = lexer.isWord("WITH");
            }
            if (kept < KEPT_TOKENS) {
                types[kept] = type;
                starts[kept] = start;
                ends[kept] = end;
                kept++;
            }
            if (type == TokenType.WORD) {
                if (isWith && withMainStart < 0 && (depth == 0 || parenthesisedWithMain) && isAnyOf(start, end, WITH_MAIN_KEYWORDS)) {
                    withMainStart = start;
                    withMainEnd = end;
                }
                if (type1 == TokenType.WORD) {
                    noticeWordPair(start1, end1, start, end);
                }
                if (lexer.isWord("SQL_CALC_FOUND_ROWS")) {
                    primaryFunction = true; // FOUND_ROWS() must then ask the server that ran this
                    calcFoundRows = true;
                }
                else if (lexer.isWord("INTO")) {
                    into = true;
                }
                else if (depth == 0 && startsAssignment(type1, start1, end1)
                        && (lexer.isWord("GLOBAL") || lexer.isWord("PERSIST") || lexer.isWord("PERSIST_ONLY"))) {
                    globalScope = true;
                }
            }
            else if (type == TokenType.VARIABLE) {
                if (!startsWithIgnoreCase(start, end, "@@")) {
                    noticeUserVariable(start, end);
                } else if (nameEndsWith(start, end, "WARNING_COUNT") || nameEndsWith(start, end, "ERROR_COUNT")) {
                    readsDiagnostics = true;
                } else if (nameEndsWith(start, end, "LAST_INSERT_ID")) {
                    readsLastInsertId = true;
                }
                if (depth == 0 && startsAssignment(type1, start1, end1)
                        && (startsWithIgnoreCase(start, end, "@@GLOBAL.") || startsWithIgnoreCase(start, end, "@@PERSIST"))) {
                    globalScope = true;
                }
            }
            else if (type == TokenType.OPERATOR) {
                if (lexer.isOperator('(')) {
                    if (type1 == TokenType.WORD && isAnyOf(start1, end1, PRIMARY_FUNCTIONS)) {
                        primaryFunction = true;
                        if (lexer.regionEqualsIgnoreCase(start1, end1, "GET_LOCK")) {
                            namedLock = true;
                        } else if (lexer.regionEqualsIgnoreCase(start1, end1, "RELEASE_ALL_LOCKS")) {
                            namedLocksReleased = true;
                        } else if (lexer.regionEqualsIgnoreCase(start1, end1, "LAST_INSERT_ID")) {
                            readsLastInsertId = true;
                        } else if (lexer.regionEqualsIgnoreCase(start1, end1, "FOUND_ROWS")) {
                            readsDiagnostics = true;
                        }
                    }
                    if (isWith && depth == 0 && withMainStart < 0 && type1 == TokenType.OPERATOR && lexer.regionEqualsIgnoreCase(start1, end1, ")")) {
                        parenthesisedWithMain = true; // WITH c AS (...) (SELECT ...)
                    }
                    depth++;
                }
                else if (lexer.isOperator(')')) {
                    depth = Math.max(0, depth - 1);
                }
                else if (lexer.isAssign() && type1 == TokenType.VARIABLE && !startsWithIgnoreCase(start1, end1, "@@")) {
                    userVariableAssignment = true;
                }
            }
            if (depth == 0 && type2 != null && type1 == TokenType.OPERATOR
                    && (lexer.regionEqualsIgnoreCase(start1, end1, "=") || lexer.regionEqualsIgnoreCase(start1, end1, ":="))) {
                noticeAssignment(type2, start2, end2, type, start, end);
            }
            type2 = type1;
            start2 = start1;
            end2 = end1;
            type1 = type;
            start1 = start;
            end1 = end;
        }
    }

    /** Records {@code @name}, {@code @'name'}, {@code @`name`} or {@code @"name"} by its unquoted, lower-case name. */
    private void noticeUserVariable(int start, int end) {
        int from = start + 1;
        int to = end;
        if (to - from >= 2 && (charAt(from) == '\'' || charAt(from) == '`' || charAt(from) == '"') && charAt(to - 1) == charAt(from)) {
            from++;
            to--;
        }
        StringBuilder name = new StringBuilder(to - from);
        for (int p = from; p < to; p++) {
            name.append(Character.toLowerCase(charAt(p)));
        }
        String text = name.toString();
        if (userVariables.isEmpty()) {
            userVariables = new java.util.ArrayList<>(2);
        }
        if (!userVariables.contains(text)) {
            userVariables.add(text);
        }
    }

    /** Whether a token after this one begins a SET assignment: it follows SET or a comma. */
    private boolean startsAssignment(TokenType previous, int start, int end) {
        return (previous == TokenType.WORD && lexer.regionEqualsIgnoreCase(start, end, "SET"))
                || (previous == TokenType.OPERATOR && lexer.regionEqualsIgnoreCase(start, end, ","));
    }

    private void reset() {
        kept = 0;
        lockingClause = false;
        primaryFunction = false;
        into = false;
        userVariableAssignment = false;
        readOnlyPhrase = false;
        readWritePhrase = false;
        globalScope = false;
        namedLock = false;
        namedLocksReleased = false;
        calcFoundRows = false;
        readsLastInsertId = false;
        readsDiagnostics = false;
        userVariables = java.util.List.of();
        autocommit = Switch.UNSET;
        transactionReadOnly = Switch.UNSET;
        withMainStart = -1;
        withMainEnd = -1;
    }

    private void noticeWordPair(int firstStart, int firstEnd, int start, int end) {
        if (lexer.regionEqualsIgnoreCase(firstStart, firstEnd, "FOR")) {
            if (lexer.regionEqualsIgnoreCase(start, end, "UPDATE") || lexer.regionEqualsIgnoreCase(start, end, "SHARE")) {
                lockingClause = true;
            }
        }
        else if (lexer.regionEqualsIgnoreCase(firstStart, firstEnd, "IN")) {
            if (lexer.regionEqualsIgnoreCase(start, end, "SHARE")) {
                lockingClause = true; // LOCK IN SHARE MODE
            }
        }
        else if (lexer.regionEqualsIgnoreCase(firstStart, firstEnd, "READ")) {
            if (lexer.regionEqualsIgnoreCase(start, end, "ONLY")) {
                readOnlyPhrase = true;
            }
            else if (lexer.regionEqualsIgnoreCase(start, end, "WRITE")) {
                readWritePhrase = true;
            }
        }
        else if (lexer.regionEqualsIgnoreCase(firstStart, firstEnd, "NEXT") || lexer.regionEqualsIgnoreCase(firstStart, firstEnd, "PREVIOUS")) {
            if (lexer.regionEqualsIgnoreCase(start, end, "VALUE")) {
                primaryFunction = true; // NEXT VALUE FOR seq
            }
        }
    }

    /** {@code name = value} at the top level: watches autocommit and transaction_read_only. */
    private void noticeAssignment(TokenType nameType, int nameStart, int nameEnd, TokenType valueType, int valueStart, int valueEnd) {
        boolean systemName = nameType == TokenType.WORD
                || (nameType == TokenType.VARIABLE && startsWithIgnoreCase(nameStart, nameEnd, "@@"));
        if (!systemName) {
            return;
        }
        if (nameEndsWith(nameStart, nameEnd, "AUTOCOMMIT")) {
            autocommit = switchValue(valueType, valueStart, valueEnd);
        }
        else if (nameEndsWith(nameStart, nameEnd, "TRANSACTION_READ_ONLY") || nameEndsWith(nameStart, nameEnd, "TX_READ_ONLY")) {
            transactionReadOnly = switchValue(valueType, valueStart, valueEnd);
        }
    }

    private Switch switchValue(TokenType type, int start, int end) {
        if (type == TokenType.STRING && end - start >= 2) {
            start++;
            end--;
        }
        else if (type != TokenType.NUMBER && type != TokenType.WORD) {
            return Switch.UNKNOWN;
        }
        if (lexer.regionEqualsIgnoreCase(start, end, "1") || lexer.regionEqualsIgnoreCase(start, end, "ON")
                || lexer.regionEqualsIgnoreCase(start, end, "TRUE")) {
            return Switch.ON;
        }
        if (lexer.regionEqualsIgnoreCase(start, end, "0") || lexer.regionEqualsIgnoreCase(start, end, "OFF")
                || lexer.regionEqualsIgnoreCase(start, end, "FALSE")) {
            return Switch.OFF;
        }
        return Switch.UNKNOWN;
    }

    /** Whether kept token {@code i} is the word {@code upperCase}. */
    boolean isWord(int i, String upperCase) {
        return i < kept && types[i] == TokenType.WORD && lexer.regionEqualsIgnoreCase(starts[i], ends[i], upperCase);
    }

    /** Kept token {@code i} in upper case if it is a word, else the empty string. */
    String upperCaseWord(int i) {
        if (i >= kept || types[i] != TokenType.WORD) {
            return "";
        }
        StringBuilder word = new StringBuilder(ends[i] - starts[i]);
        for (int p = starts[i]; p < ends[i]; p++) {
            word.append(Character.toUpperCase(charAt(p)));
        }
        return word.toString();
    }

    /** Whether the main statement after WITH starts with {@code upperCase}; false when not WITH. */
    boolean withMainIs(String upperCase) {
        return withMainStart >= 0 && lexer.regionEqualsIgnoreCase(withMainStart, withMainEnd, upperCase);
    }

    boolean hasWithMain() {
        return withMainStart >= 0;
    }

    private char charAt(int p) {
        return lexer.charAt(p);
    }

    private boolean isAnyOf(int start, int end, String[] upperCaseWords) {
        for (String word : upperCaseWords) {
            if (lexer.regionEqualsIgnoreCase(start, end, word)) {
                return true;
            }
        }
        return false;
    }

    private boolean startsWithIgnoreCase(int start, int end, String upperCasePrefix) {
        return end - start >= upperCasePrefix.length()
                && lexer.regionEqualsIgnoreCase(start, start + upperCasePrefix.length(), upperCasePrefix);
    }

    private boolean nameEndsWith(int start, int end, String upperCaseSuffix) {
        int from = end - upperCaseSuffix.length();
        if (from < start || !lexer.regionEqualsIgnoreCase(from, end, upperCaseSuffix)) {
            return false;
        }
        return from == start || charAt(from - 1) == '.' || charAt(from - 1) == '@';
    }
}
