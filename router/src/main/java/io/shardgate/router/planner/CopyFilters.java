package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLExpr;
import com.alibaba.druid.sql.ast.expr.SQLAllExpr;
import com.alibaba.druid.sql.ast.expr.SQLAnyExpr;
import com.alibaba.druid.sql.ast.expr.SQLExistsExpr;
import com.alibaba.druid.sql.ast.expr.SQLIdentifierExpr;
import com.alibaba.druid.sql.ast.expr.SQLInSubQueryExpr;
import com.alibaba.druid.sql.ast.expr.SQLMethodInvokeExpr;
import com.alibaba.druid.sql.ast.expr.SQLPropertyExpr;
import com.alibaba.druid.sql.ast.expr.SQLQueryExpr;
import com.alibaba.druid.sql.ast.expr.SQLSomeExpr;
import com.alibaba.druid.sql.ast.expr.SQLVariantRefExpr;
import com.alibaba.druid.sql.dialect.mysql.parser.MySqlExprParser;
import com.alibaba.druid.sql.dialect.mysql.visitor.MySqlASTVisitorAdapter;
import com.alibaba.druid.sql.parser.Token;
import io.shardgate.router.classify.TokenType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The conditions of a statement's top-level WHERE that a table's copy can apply on the table's own
 * shards ({@link CopyJoins}): the conjuncts (the parts joined by AND at the clause's top level) that
 * read no column but that table's, hold no subquery, user variable or non-deterministic function.
 * Only for a table of the top-level FROM that the statement names once and that no outer join makes
 * nullable (there WHERE filters the joined rows, not the table's). The conjuncts keep the client's
 * text and its {@code ?}.
 */
final class CopyFilters {
    private static final Set<String> CLAUSE_ENDS = Set.of("GROUP", "HAVING", "ORDER", "LIMIT", "WINDOW", "FOR", "LOCK", "INTO",
            "UNION", "EXCEPT", "INTERSECT", "PROCEDURE", "RETURNING");
    private static final Set<String> VOLATILE = Set.of("RAND", "UUID", "UUID_SHORT", "SYS_GUID", "SLEEP", "NEXTVAL", "LASTVAL",
            "SETVAL", "GET_LOCK", "RELEASE_LOCK", "IS_FREE_LOCK", "IS_USED_LOCK", "LAST_INSERT_ID", "ROW_COUNT", "FOUND_ROWS",
            "BENCHMARK", "VALUES", "VALUE", "LOAD_FILE", "NOW", "SYSDATE", "CURRENT_TIMESTAMP", "UNIX_TIMESTAMP", "CURTIME",
            "CURDATE", "UTC_TIMESTAMP", "RANDOM_BYTES");

    /**
     * A table the filter is for.
     *
     * @param alias   what the statement's columns call it: its alias, else its name
     * @param name    its name
     * @param columns its columns (lower case), empty when unknown
     */
    record Target(String alias, String name, Set<String> columns) {
    }

    private final Tokens tokens;

    CopyFilters(Tokens tokens) {
        this.tokens = tokens;
    }

    /**
     * The conjuncts of the top-level WHERE for {@code target}, joined by AND, or empty when none applies.
     * {@code others}: the other tables of the top-level FROM (an unqualified column must be in none of them;
     * null when one of them has unknown columns, such as a derived table).
     */
    Optional<Tokens.Fragment> forTable(Target target, List<Target> others) {
        List<int[]> conjuncts = conjuncts();
        StringBuilder text = new StringBuilder();
        List<io.shardgate.router.plan.ValueSource> parameters = new ArrayList<>();
        for (int[] range : conjuncts) {
            Tokens.Fragment conjunct = tokens.fragment(tokens.get(range[0]).start(), tokens.get(range[1] - 1).end());
            if (!reads(conjunct.text(), target, others)) {
                continue;
            }
            text.append(text.length() == 0 ? "(" : " AND (").append(conjunct.text()).append(')');
            parameters.addAll(conjunct.parameters());
        }
        return text.length() == 0 ? Optional.empty() : Optional.of(new Tokens.Fragment(text.toString(), parameters));
    }

    /** The token ranges [from, to) of the top-level WHERE's conjuncts; empty when it has none or an OR at its top. */
    private List<int[]> conjuncts() {
        int where = -1;
        for (int i = 0; i < tokens.size(); i++) {
            if (tokens.get(i).depth() == 0 && tokens.isWord(i, "WHERE")) {
                where = i;
                break;
            }
        }
        List<int[]> out = new ArrayList<>();
        if (where < 0) {
            return out;
        }
        int start = where + 1;
        int cases = 0;
        boolean between = false;
        int i = start;
        for (; i < tokens.size(); i++) {
            if (tokens.get(i).depth() != 0) {
                continue;
            }
            String word = tokens.get(i).type() == TokenType.WORD ? tokens.text(i).toUpperCase(Locale.ROOT) : null;
            String operator = tokens.get(i).type() == TokenType.OPERATOR ? tokens.text(i) : null;
            if (word != null && cases == 0 && CLAUSE_ENDS.contains(word) || ";".equals(operator)) {
                break;
            }
            if ("CASE".equals(word)) {
                cases++;
            } else if ("END".equals(word) && cases > 0) {
                cases--;
            } else if (cases == 0 && ("OR".equals(word) || "XOR".equals(word) || "||".equals(operator))) {
                return List.of();
            } else if ("BETWEEN".equals(word)) {
                between = true;
            } else if (cases == 0 && ("AND".equals(word) || "&&".equals(operator))) {
                if (between) {
                    between = false;
                } else {
                    if (i > start) {
                        out.add(new int[] {start, i});
                    }
                    start = i + 1;
                }
            }
        }
        if (i > start) {
            out.add(new int[] {start, i});
        }
        return out;
    }

    /** Whether {@code conjunct} reads columns of {@code target} only, and nothing else it must not. */
    private static boolean reads(String conjunct, Target target, List<Target> others) {
        SQLExpr expr;
        try {
            MySqlExprParser parser = new MySqlExprParser(ExecutableComments.reveal(conjunct));
            expr = parser.expr();
            if (parser.getLexer().token() != Token.EOF) {
                return false;
            }
        } catch (RuntimeException e) {
            return false;
        }
        boolean[] ok = {true};
        int[] columns = {0};
        expr.accept(new MySqlASTVisitorAdapter() {
            @Override
            public boolean visit(SQLPropertyExpr x) {
                String owner = x.getOwnerName();
                int dot = owner == null ? -1 : owner.lastIndexOf('.');
                String table = owner == null ? "" : Names.lower(dot < 0 ? owner : owner.substring(dot + 1));
                if (!table.equals(Names.lower(target.alias()))) {
                    ok[0] = false;
                }
                columns[0]++;
                return false;
            }

            @Override
            public boolean visit(SQLIdentifierExpr x) {
                String column = Names.lower(x.getName());
                if (!target.columns().contains(column) || others == null
                        || others.stream().anyMatch(other -> other.columns().contains(column))) {
                    ok[0] = false;
                }
                columns[0]++;
                return false;
            }

            @Override
            public boolean visit(SQLVariantRefExpr x) {
                if (!"?".equals(x.getName())) {
                    ok[0] = false;
                }
                return false;
            }

            @Override
            public boolean visit(SQLMethodInvokeExpr x) {
                if (VOLATILE.contains(x.getMethodName().toUpperCase(Locale.ROOT))) {
                    ok[0] = false;
                }
                return true;
            }

            @Override
            public boolean visit(SQLQueryExpr x) {
                ok[0] = false;
                return false;
            }

            @Override
            public boolean visit(SQLExistsExpr x) {
                ok[0] = false;
                return false;
            }

            @Override
            public boolean visit(SQLInSubQueryExpr x) {
                ok[0] = false;
                return false;
            }

            @Override
            public boolean visit(SQLAllExpr x) {
                ok[0] = false;
                return false;
            }

            @Override
            public boolean visit(SQLAnyExpr x) {
                ok[0] = false;
                return false;
            }

            @Override
            public boolean visit(SQLSomeExpr x) {
                ok[0] = false;
                return false;
            }
        });
        return ok[0] && columns[0] > 0;
    }

    /** The columns (lower case) of a table, as the catalog knows them; empty when it does not. */
    static Set<String> columns(PlanContext context, String schema, String table) {
        return context.columns().columns(schema, table)
                .map(t -> Set.copyOf(t.names().stream().map(Names::lower).toList()))
                .orElse(Set.of());
    }

    /** For {@link Map} keys of tables. */
    static String key(String schema, String table) {
        return TableResolver.key(schema, table);
    }
}
