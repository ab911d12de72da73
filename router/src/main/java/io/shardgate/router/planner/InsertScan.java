package io.shardgate.router.planner;

import io.shardgate.router.classify.TokenType;
import io.shardgate.router.plan.InsertRow;
import io.shardgate.router.plan.InsertSplit;
import io.shardgate.router.plan.InsertValue;
import io.shardgate.router.plan.ValueSource;
import io.shardgate.router.schema.Sequence;
import io.shardgate.router.schema.ShardedTable;
import io.shardgate.router.schema.TableColumns;
import io.shardgate.router.value.SqlValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The bulk-load shape of INSERT planned from its tokens alone, without Druid: {@code INSERT [IGNORE]
 * [INTO] [schema.]table [(columns)] VALUES (row), (row), ...} into a sharded table (without a column list:
 * one whose columns the catalog knows, as a dump writes it) where every value is a
 * plain literal and the shard key (and a sequence-fed column) is one that routes without evaluation.
 * Each row keeps its exact text, so its shard's statement is the client's prefix, that shard's row
 * tuples copied as written, and the client's trailing text. Anything else (a parameter, an expression,
 * PARTITION, ON DUPLICATE KEY UPDATE, SET form, executable comments, a NULL or non-integer key, a
 * sequence value to draw, a count mismatch) is empty: {@link InsertPlanner} plans it from the parse.
 *
 * <p>Accepting only literals keeps the statements this takes a subset of those the parser accepts, so
 * it never turns a refusal into a shard's error; {@code InsertScanTest} checks that both paths send the
 * same statements.
 */
final class InsertScan {
    private final PlanContext context;
    private final Tokens tokens;

    InsertScan(PlanContext context) {
        this.context = context;
        this.tokens = context.tokens();
    }

    /** The split of the statement, or empty when it is not of the bulk-load shape. */
    Optional<InsertSplit> plan() {
        if (hasExecutableComment(tokens.sql())) {
            return Optional.empty();
        }
        int at = 0;
        boolean replace = tokens.isWord(0, "REPLACE");
        if (!replace && !tokens.isWord(0, "INSERT")) {
            return Optional.empty();
        }
        at++;
        while (tokens.isWord(at, "LOW_PRIORITY") || tokens.isWord(at, "DELAYED") || tokens.isWord(at, "HIGH_PRIORITY")
                || (!replace && tokens.isWord(at, "IGNORE"))) {
            at++;
        }
        if (tokens.isWord(at, "INTO")) {
            at++;
        }
        String schemaName = null;
        String tableName = name(at);
        if (tableName != null && tokens.isOperator(at + 1, '.')) {
            schemaName = tableName;
            at += 2;
            tableName = name(at);
        }
        if (tableName != null && (tokens.isWord(at + 1, "VALUES") || tokens.isWord(at + 1, "VALUE"))) {
            PlacedTable table = context.resolver().resolve(schemaName == null ? null : Names.plain(schemaName), Names.plain(tableName));
            Optional<List<String>> implicit = table.sharded() ? InsertColumns.ifKnown(context, table).map(TableColumns::names)
                    : Optional.empty();
            return implicit.isEmpty() ? Optional.empty() : rows(at + 2, table, implicit.get());
        }
        if (tableName == null || !tokens.isOperator(at + 1, '(')) {
            return Optional.empty();
        }
        at += 2;
        List<String> columns = new ArrayList<>();
        for (String column = name(at); column != null; column = name(at)) {
            columns.add(Names.plain(tokens.text(at)));
            at++;
            if (!tokens.isOperator(at, ',')) {
                break;
            }
            at++;
        }
        if (columns.isEmpty() || !tokens.isOperator(at, ')') || !(tokens.isWord(at + 1, "VALUES") || tokens.isWord(at + 1, "VALUE"))) {
            return Optional.empty();
        }
        PlacedTable table = context.resolver().resolve(schemaName == null ? null : Names.plain(schemaName), Names.plain(tableName));
        if (!table.sharded()) {
            return Optional.empty();
        }
        return rows(at + 2, table, columns);
    }

    private Optional<InsertSplit> rows(int first, PlacedTable table, List<String> columns) {
        ShardedTable rule = table.shardedRule();
        int keyIndex = Names.indexOf(columns, rule.shardKey());
        Optional<Sequence> sequence = context.schema().schema(table.schema()).flatMap(s -> s.sequence(table.name()));
        int sequenceIndex = sequence.map(s -> Names.indexOf(columns, s.column())).orElse(-1);
        if (keyIndex < 0 || (sequence.isPresent() && sequenceIndex < 0)) {
            return Optional.empty();
        }
        String sql = tokens.sql();
        List<InsertRow> rows = new ArrayList<>();
        int at = first;
        int end = -1;
        while (tokens.isOperator(at, '(')) {
            int rowStart = at;
            InsertValue[] values = new InsertValue[columns.size()];
            int column = 0;
            at++;
            while (true) {
                int next = literalEnd(at);
                if (next < 0 || column >= values.length) {
                    return Optional.empty();
                }
                Optional<InsertValue> value = value(at, next, column == keyIndex, column == sequenceIndex);
                if (value.isEmpty()) {
                    return Optional.empty();
                }
                values[column++] = value.get();
                at = next;
                if (tokens.isOperator(at, ')')) {
                    break;
                }
                if (!tokens.isOperator(at, ',')) {
                    return Optional.empty();
                }
                at++;
            }
            if (column != values.length) {
                return Optional.empty();
            }
            end = tokens.get(at).end();
            rows.add(new InsertRow(rows.size() + 1, List.of(values), keyIndex,
                    Optional.of(sql.substring(tokens.get(rowStart).start(), end))));
            at++;
            if (!tokens.isOperator(at, ',')) {
                break;
            }
            at++;
            if (!tokens.isOperator(at, '(')) {
                // A comma after the last row: not an INSERT the parser takes.
                return Optional.empty();
            }
        }
        if (end < 0 || at != tokens.size()) {
            return Optional.empty();
        }
        String keyName = Names.quote(table.schema()) + "." + Names.quote(table.name()) + "." + Names.quote(rule.shardKey());
        InsertSplit split = new InsertSplit(keyName, rule.shardKey(), rule.vindex(), context.schema().ranges(),
                sql.substring(0, tokens.get(first).start()), rows, sql.substring(end), List.of(), context.schema().shardNames(), false,
                sequence);
        for (InsertRow row : rows) {
            // Errors of a bad key (out of range, no shard) at planning, as the parsed path gives them.
            split.shardOf(row, InsertSplit.literalKey(row).orElseThrow());
        }
        return Optional.of(split);
    }

    /**
     * A value of tokens {@code [from, to)}: its text is only read where routing needs it (the shard key, a
     * sequence-fed column given explicitly); empty when such a value would not route as a literal.
     */
    private Optional<InsertValue> value(int from, int to, boolean key, boolean sequenceColumn) {
        if (!key && !sequenceColumn) {
            return Optional.of(new InsertValue.Written(text(from, to), List.of(), Optional.empty()));
        }
        Optional<SqlValue> literal = routingLiteral(from, to);
        if (literal.isEmpty() || (sequenceColumn && (literal.get().type() != SqlValue.Type.INTEGER || literal.get().longValue() == 0))) {
            // A key to hash from an expression, or a sequence column that may draw: the parsed path decides.
            return Optional.empty();
        }
        InsertValue.Written written = new InsertValue.Written(text(from, to), List.of(), Optional.of(new ValueSource.Literal(literal.get())));
        return Optional.of(sequenceColumn ? new InsertValue.FromSequence(Optional.of(written)) : written);
    }

    /** A signed decimal integer that fits a long, or a single-quoted string without backslashes, as the parser reads it. */
    private Optional<SqlValue> routingLiteral(int from, int to) {
        Tokens.Token last = tokens.get(to - 1);
        String text = tokens.text(to - 1);
        if (last.type() == TokenType.NUMBER) {
            boolean negative = to - from == 2 && tokens.isOperator(from, '-');
            if ((to - from == 2 && !negative) || text.length() > 18) {
                return Optional.empty();
            }
            for (int i = 0; i < text.length(); i++) {
                if (!isDigit(text.charAt(i))) {
                    return Optional.empty();
                }
            }
            long value = Long.parseLong(text);
            return Optional.of(SqlValue.ofLong(negative ? -value : value));
        }
        if (to - from == 1 && last.type() == TokenType.STRING && text.length() >= 2 && text.charAt(0) == '\''
                && text.charAt(text.length() - 1) == '\'' && text.indexOf('\\') < 0) {
            return Optional.of(SqlValue.ofText(text.substring(1, text.length() - 1).replace("''", "'")));
        }
        return Optional.empty();
    }

    /**
     * Where the literal value starting at token {@code at} ends (the token after it), or -1: a number
     * (signed too), a single-quoted string, NULL, TRUE, FALSE, or a hex/bit/national string such as {@code X'0A'}.
     */
    private int literalEnd(int at) {
        if (at >= tokens.size()) {
            return -1;
        }
        Tokens.Token token = tokens.get(at);
        if (token.type() == TokenType.NUMBER) {
            return number(at) ? at + 1 : -1;
        }
        if ((tokens.isOperator(at, '-') || tokens.isOperator(at, '+')) && at + 1 < tokens.size()
                && tokens.get(at + 1).type() == TokenType.NUMBER && number(at + 1)) {
            return at + 2;
        }
        if (token.type() == TokenType.STRING) {
            return tokens.sql().charAt(token.start()) == '\'' ? at + 1 : -1;
        }
        if (tokens.isWord(at, "NULL") || tokens.isWord(at, "TRUE") || tokens.isWord(at, "FALSE")) {
            return at + 1;
        }
        if (token.type() == TokenType.WORD && token.end() - token.start() == 1 && at + 1 < tokens.size()
                && "xXbBnN".indexOf(tokens.sql().charAt(token.start())) >= 0 && tokens.get(at + 1).start() == token.end()
                && tokens.get(at + 1).type() == TokenType.STRING && tokens.sql().charAt(token.end()) == '\'') {
            return at + 2;
        }
        return -1;
    }

    /** Whether a NUMBER token is a plain number: digits with an optional fraction and exponent, or 0x / 0b digits. */
    private boolean number(int at) {
        String sql = tokens.sql();
        int i = tokens.get(at).start();
        int end = tokens.get(at).end();
        if (end - i > 2 && sql.charAt(i) == '0' && (sql.charAt(i + 1) == 'x' || sql.charAt(i + 1) == 'b')) {
            String digits = sql.charAt(i + 1) == 'x' ? "0123456789abcdefABCDEF" : "01";
            for (int d = i + 2; d < end; d++) {
                if (digits.indexOf(sql.charAt(d)) < 0) {
                    return false;
                }
            }
            return true;
        }
        int digits = 0;
        while (i < end && isDigit(sql.charAt(i))) {
            i++;
            digits++;
        }
        if (i < end && sql.charAt(i) == '.') {
            i++;
            while (i < end && isDigit(sql.charAt(i))) {
                i++;
                digits++;
            }
        }
        if (digits > 0 && i < end && (sql.charAt(i) == 'e' || sql.charAt(i) == 'E')) {
            i++;
            if (i < end && (sql.charAt(i) == '+' || sql.charAt(i) == '-')) {
                i++;
            }
            int exponent = i;
            while (i < end && isDigit(sql.charAt(i))) {
                i++;
            }
            if (i == exponent) {
                return false;
            }
        }
        return digits > 0 && i == end;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** The name at token {@code at} (a word other than a clause keyword, or a quoted identifier), or null. */
    private String name(int at) {
        if (at >= tokens.size()) {
            return null;
        }
        TokenType type = tokens.get(at).type();
        if (type == TokenType.QUOTED_IDENTIFIER) {
            return tokens.text(at);
        }
        if (type != TokenType.WORD || tokens.isWord(at, "VALUES") || tokens.isWord(at, "VALUE") || tokens.isWord(at, "SET")
                || tokens.isWord(at, "SELECT") || tokens.isWord(at, "PARTITION") || tokens.isWord(at, "INTO") || tokens.isWord(at, "IGNORE")
                || tokens.isWord(at, "LOW_PRIORITY") || tokens.isWord(at, "DELAYED") || tokens.isWord(at, "HIGH_PRIORITY")) {
            return null;
        }
        return tokens.text(at);
    }

    /** Whether {@code sql} has a {@code /*!} or {@code /*M!} comment (its text is SQL to the server); one pass over it. */
    private static boolean hasExecutableComment(String sql) {
        for (int slash = sql.indexOf('/'); slash >= 0; slash = sql.indexOf('/', slash + 1)) {
            if (sql.startsWith("/*!", slash) || sql.startsWith("/*M!", slash)) {
                return true;
            }
        }
        return false;
    }

    private String text(int from, int to) {
        return tokens.sql().substring(tokens.get(from).start(), tokens.get(to - 1).end());
    }

}
