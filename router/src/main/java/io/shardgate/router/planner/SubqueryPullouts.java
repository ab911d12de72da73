package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLStatement;
import com.alibaba.druid.sql.ast.expr.SQLPropertyExpr;
import com.alibaba.druid.sql.ast.statement.SQLExprTableSource;
import com.alibaba.druid.sql.ast.statement.SQLSelectStatement;
import com.alibaba.druid.sql.ast.statement.SQLSubqueryTableSource;
import com.alibaba.druid.sql.ast.statement.SQLWithSubqueryClause;
import com.alibaba.druid.sql.dialect.mysql.parser.MySqlStatementParser;
import com.alibaba.druid.sql.dialect.mysql.visitor.MySqlASTVisitorAdapter;
import io.shardgate.router.plan.Plan;
import io.shardgate.router.plan.ShardSql;
import io.shardgate.router.plan.SubqueryPullout;
import io.shardgate.router.plan.ValueSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Plans a SELECT that cannot run whole on each shard because of subqueries over other shards'
 * rows, when those subqueries do not reference the statement around them: each becomes its own
 * plan, run first ({@link SubqueryPullout}). Only subqueries whose result is a value or a list
 * qualify: {@code x [NOT] IN (SELECT …)}, a comparison with {@code (SELECT …)} (not
 * {@code ANY}/{@code ALL}), and {@code [NOT] EXISTS (SELECT …)}; not a derived table or a
 * select-list subquery (whose text names a result column). The subqueries are found by their
 * tokens; a subquery is uncorrelated when every qualified column in it names a table it reads
 * itself (an unqualified outer column then fails on the shard with MariaDB's own error, never with
 * a wrong row). The statement around them must plan once they are replaced.
 */
final class SubqueryPullouts {
    private static final Set<String> COMPARISONS = Set.of("=", "<", ">", "<=", ">=", "<>", "!=", "<=>");

    private final Planner planner;
    private final Tokens tokens;
    private final String currentSchema;

    SubqueryPullouts(Planner planner, Tokens tokens, String currentSchema) {
        this.planner = planner;
        this.tokens = tokens;
        this.currentSchema = currentSchema;
    }

    /** The pullout plan, or empty when the statement has no such subquery or does not plan without them. */
    Optional<SubqueryPullout> plan() {
        List<ShardSql> pieces = new ArrayList<>();
        List<SubqueryPullout.Subquery> subqueries = new ArrayList<>();
        StringBuilder probe = new StringBuilder();
        int textAt = 0;
        for (int i = 0; i + 1 < tokens.size(); i++) {
            if (!tokens.isOperator(i, '(') || !(tokens.isWord(i + 1, "SELECT") || tokens.isWord(i + 1, "WITH"))) {
                continue;
            }
            int close = tokens.closing(i);
            Optional<SubqueryPullout.Use> use = use(i);
            if (close < 0 || use.isEmpty()) {
                continue;
            }
            Optional<SubqueryPullout.Subquery> subquery = subquery(i, close, use.get());
            if (subquery.isEmpty()) {
                continue;
            }
            int from = use.get() == SubqueryPullout.Use.EXISTS ? tokens.get(i - 1).start() : tokens.get(i).start();
            Tokens.Fragment before = tokens.fragment(textAt, from);
            pieces.add(new ShardSql(before.text(), before.parameters()));
            subqueries.add(subquery.get());
            probe.append(before.text()).append(use.get() == SubqueryPullout.Use.EXISTS ? "TRUE" : "(?)");
            textAt = tokens.get(close).end();
            i = close;
        }
        if (subqueries.isEmpty()) {
            return Optional.empty();
        }
        Tokens.Fragment rest = tokens.fragment(textAt, tokens.sql().length());
        pieces.add(new ShardSql(rest.text(), rest.parameters()));
        probe.append(rest.text());
        try {
            planner.plan(probe.toString(), currentSchema);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        String schema = currentSchema;
        return Optional.of(new SubqueryPullout(pieces, subqueries, sql -> planner.plan(sql, schema)));
    }

    /** How the subquery opening at token {@code open} is used, when it can be pulled out. */
    private Optional<SubqueryPullout.Use> use(int open) {
        int before = open - 1;
        if (before < 0) {
            return Optional.empty();
        }
        if (tokens.isWord(before, "IN")) {
            return Optional.of(SubqueryPullout.Use.IN);
        }
        if (tokens.isWord(before, "EXISTS")) {
            return Optional.of(SubqueryPullout.Use.EXISTS);
        }
        if (tokens.get(before).type() == io.shardgate.router.classify.TokenType.OPERATOR
                && COMPARISONS.contains(tokens.text(before))) {
            return Optional.of(SubqueryPullout.Use.SCALAR);
        }
        return Optional.empty();
    }

    private Optional<SubqueryPullout.Subquery> subquery(int open, int close, SubqueryPullout.Use use) {
        int start = tokens.get(open).end();
        int end = tokens.get(close).start();
        String text = tokens.sql().substring(start, end).strip();
        if (text.equals(SubqueryPullout.NO_ROWS) || !uncorrelated(text)) {
            return Optional.empty();
        }
        Plan plan;
        try {
            plan = planner.plan(text, currentSchema);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        List<ValueSource> parameters = tokens.fragment(start, end).parameters();
        if (parameters.size() != plan.parameterCount()) {
            return Optional.empty();
        }
        return Optional.of(new SubqueryPullout.Subquery(plan.root(), parameters, use, text));
    }

    /** Whether every qualified column of {@code select} names a table, alias or derived table it declares itself. */
    private static boolean uncorrelated(String select) {
        SQLStatement statement;
        try {
            List<SQLStatement> statements = new MySqlStatementParser(ExecutableComments.reveal(select)).parseStatementList();
            if (statements.size() != 1 || !(statements.get(0) instanceof SQLSelectStatement)) {
                return false;
            }
            statement = statements.get(0);
        } catch (RuntimeException e) {
            return false;
        }
        Set<String> declared = new HashSet<>();
        List<String> owners = new ArrayList<>();
        statement.accept(new MySqlASTVisitorAdapter() {
            @Override
            public boolean visit(SQLExprTableSource x) {
                // An aliased table is known by its alias only: its own name there is the outer statement's table.
                if (x.getAlias() != null) {
                    declared.add(Names.lower(x.getAlias()));
                } else if (x.getTableName() != null) {
                    declared.add(Names.lower(x.getTableName()));
                }
                return true;
            }

            @Override
            public boolean visit(SQLSubqueryTableSource x) {
                if (x.getAlias() != null) {
                    declared.add(Names.lower(x.getAlias()));
                }
                return true;
            }

            @Override
            public boolean visit(SQLWithSubqueryClause.Entry x) {
                if (x.getAlias() != null) {
                    declared.add(Names.lower(x.getAlias()));
                }
                return true;
            }

            @Override
            public boolean visit(SQLPropertyExpr x) {
                String owner = x.getOwnerName();
                if (owner != null) {
                    int dot = owner.lastIndexOf('.');
                    owners.add(Names.lower(dot < 0 ? owner : owner.substring(dot + 1)));
                }
                return false;
            }
        });
        return owners.stream().allMatch(owner -> declared.contains(owner.toLowerCase(Locale.ROOT)));
    }
}
