package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLStatement;
import com.alibaba.druid.sql.ast.statement.SQLExprTableSource;
import com.alibaba.druid.sql.ast.statement.SQLJoinTableSource;
import com.alibaba.druid.sql.ast.statement.SQLSelectQueryBlock;
import com.alibaba.druid.sql.ast.statement.SQLSelectStatement;
import com.alibaba.druid.sql.ast.statement.SQLTableSource;
import com.alibaba.druid.sql.ast.statement.SQLWithSubqueryClause;
import com.alibaba.druid.sql.dialect.mysql.visitor.MySqlASTVisitorAdapter;
import io.shardgate.errors.ShardgateException;
import io.shardgate.router.plan.CopyJoin;
import io.shardgate.router.plan.Plan;
import io.shardgate.router.plan.PlanNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Plans a SELECT whose tables live on different shards and whose shape no other plan answers (a join
 * off the shard keys, a correlated subquery over another sharded table) as a {@link CopyJoin}: every
 * sharded table but one (the driving table) is copied to the shards the statement then runs on, and
 * the statement is planned as if the copied tables were reference tables, so the planner's own rules
 * for reference tables keep its answer right (an outer join that keeps every row of a copy, or a copy
 * in a query block without the driving table, would repeat rows on every shard: it does not plan).
 * Driving tables are tried in the order the statement names them; when none plans, every sharded table
 * is copied to one shard. A statement that also reads an unsharded table runs where that table lives,
 * with every sharded table copied there. Locking reads (FOR UPDATE, LOCK IN SHARE MODE) are not planned
 * this way: a copy's rows cannot be locked.
 */
final class CopyJoins {
    private final Planner planner;
    private final PlanContext context;
    private final SQLStatement statement;
    private final String reason;

    /**
     * {@code statement}: a SELECT, or an UPDATE or DELETE (whose own tables are never copied: only tables
     * its subqueries alone read); {@code reason}: why it does not plan without copies (the refusal's message).
     */
    CopyJoins(Planner planner, PlanContext context, SQLStatement statement, String reason) {
        this.planner = planner;
        this.context = context;
        this.statement = statement;
        this.reason = reason;
    }

    private boolean write() {
        return !(statement instanceof SQLSelectStatement);
    }

    /** The plan, or empty when the statement does not plan this way. */
    Optional<CopyJoin> plan() {
        if (excluded()) {
            return Optional.empty();
        }
        Map<String, PlacedTable> sharded = new LinkedHashMap<>();
        Map<String, Integer> uses = new HashMap<>();
        boolean unsharded;
        try {
            unsharded = tables(sharded, uses);
        } catch (ShardgateException e) {
            return Optional.empty();
        }
        if (sharded.isEmpty()) {
            return Optional.empty();
        }
        List<Set<String>> candidates = new ArrayList<>();
        if (write()) {
            // A write's own tables stay themselves: a copy in their place would take the write and drop it.
            Set<String> copied = subqueryOnly(sharded.keySet());
            if (unsharded || copied.isEmpty()) {
                return Optional.empty();
            }
            candidates.add(copied);
        } else if (!unsharded) {
            for (String driving : sharded.keySet()) {
                Set<String> copied = new LinkedHashSet<>(sharded.keySet());
                copied.remove(driving);
                if (!copied.isEmpty()) {
                    candidates.add(copied);
                }
            }
        }
        if (!write()) {
            candidates.add(sharded.keySet());
        }
        String currentSchema = context.resolver().currentSchema();
        Map<String, CopyFilters.Target> top = topLevelTables();
        for (Set<String> copied : candidates) {
            PlanNode planned;
            try {
                planned = planner.planWithCopies(context.sql(), currentSchema, copied);
            } catch (ShardgateException e) {
                continue;
            }
            Optional<List<CopyJoin.TableCopy>> copies = copies(copied, sharded, uses, top);
            if (copies.isPresent()) {
                // A write runs once: in batches it would change a row once per batch that matches it.
                return Optional.of(new CopyJoin(copies.get(), planned, reason, !write() && batchable(copied, planned, uses, top)));
            }
        }
        return Optional.empty();
    }

    /**
     * Whether the statement is one a copy cannot answer as the client means it: a locking read (a copy's
     * rows cannot be locked), SELECT ... INTO and SQL_CALC_FOUND_ROWS and {@code :=} (their effects stay on the
     * shard's connection, not in the client's session), {@code PARTITION (…)} clauses (a copy holds a whole table's
     * rows; a window's PARTITION BY is fine).
     */
    private boolean excluded() {
        Tokens tokens = context.tokens();
        for (int i = 0; i < tokens.size(); i++) {
            if ((tokens.isWord(i, "FOR") && (tokens.isWord(i + 1, "UPDATE") || tokens.isWord(i + 1, "SHARE")))
                    || (tokens.isWord(i, "LOCK") && tokens.isWord(i + 1, "IN")) || tokens.isWord(i, "INTO")
                    || tokens.isWord(i, "SQL_CALC_FOUND_ROWS") || (tokens.isWord(i, "PARTITION") && tokens.isOperator(i + 1, '('))
                    || (tokens.get(i).type() == io.shardgate.router.classify.TokenType.OPERATOR && tokens.text(i).equals(":="))) {
                return true;
            }
        }
        return false;
    }

    /** Fills {@code sharded} with the statement's sharded tables (by key) and {@code uses} with how often each table is named; true when it reads an unsharded table too. */
    private boolean tables(Map<String, PlacedTable> sharded, Map<String, Integer> uses) {
        Set<String> ctes = new HashSet<>();
        List<SQLExprTableSource> sources = new ArrayList<>();
        statement.accept(new MySqlASTVisitorAdapter() {
            @Override
            public boolean visit(SQLWithSubqueryClause.Entry x) {
                if (x.getAlias() != null) {
                    ctes.add(Names.lower(x.getAlias()));
                }
                return true;
            }

            @Override
            public boolean visit(SQLExprTableSource x) {
                sources.add(x);
                return true;
            }
        });
        boolean unsharded = false;
        for (SQLExprTableSource source : sources) {
            if (source.getTableName() == null) {
                continue;
            }
            String schemaName = Names.plain(source.getSchema());
            String name = Names.plain(source.getTableName());
            if (schemaName == null && (name.equalsIgnoreCase("dual") || ctes.contains(Names.lower(name)))) {
                continue;
            }
            PlacedTable table = context.resolver().resolve(schemaName, name);
            String key = TableResolver.key(table.schema(), table.name());
            uses.merge(key, 1, Integer::sum);
            if (table.sharded()) {
                sharded.putIfAbsent(key, table);
            } else if (table.unsharded()) {
                unsharded = true;
            }
        }
        return unsharded;
    }

    /**
     * Whether the one copied table can stream in batches, the statement running once per batch: each of
     * the statement's rows then comes from one copied row, and nothing merges rows. So: the copy is named
     * once, in the top-level FROM, on no outer join's NULL-extended side; the statement scatters without a
     * merge above it; and its top level has no GROUP BY, HAVING, DISTINCT, ORDER BY, LIMIT, UNION or window.
     */
    private boolean batchable(Set<String> copied, PlanNode statement, Map<String, Integer> uses,
                              Map<String, CopyFilters.Target> top) {
        if (copied.size() != 1 || !(statement instanceof io.shardgate.router.plan.Route route)
                || route.variant() != io.shardgate.router.plan.RouteVariant.SCATTER) {
            return false;
        }
        String key = copied.iterator().next();
        if (uses.get(key) != 1 || !top.containsKey(key)) {
            return false;
        }
        Tokens tokens = context.tokens();
        for (int i = 0; i < tokens.size(); i++) {
            boolean outer = tokens.get(i).depth() == 0;
            if (tokens.isWord(i, "OVER") || outer && (tokens.isWord(i, "GROUP") || tokens.isWord(i, "HAVING") || tokens.isWord(i, "DISTINCT")
                    || tokens.isWord(i, "DISTINCTROW") || tokens.isWord(i, "ORDER") || tokens.isWord(i, "LIMIT") || tokens.isWord(i, "UNION")
                    || tokens.isWord(i, "WINDOW") || tokens.isWord(i, "WITH"))) {
                return false;
            }
        }
        return true;
    }

    /** Of {@code tables} (keys), those the statement reads only inside subqueries (SELECTs within it). */
    private Set<String> subqueryOnly(Set<String> tables) {
        Set<String> outside = new HashSet<>();
        int[] depth = {0};
        statement.accept(new MySqlASTVisitorAdapter() {
            @Override
            public boolean visit(com.alibaba.druid.sql.ast.statement.SQLSelect x) {
                depth[0]++;
                return true;
            }

            @Override
            public void endVisit(com.alibaba.druid.sql.ast.statement.SQLSelect x) {
                depth[0]--;
            }

            @Override
            public boolean visit(SQLExprTableSource x) {
                if (depth[0] == 0 && x.getTableName() != null) {
                    try {
                        PlacedTable table = context.resolver().resolve(Names.plain(x.getSchema()), Names.plain(x.getTableName()));
                        outside.add(TableResolver.key(table.schema(), table.name()));
                    } catch (ShardgateException e) {
                        outside.add("?");
                    }
                }
                return true;
            }
        });
        Set<String> only = new LinkedHashSet<>(tables);
        only.removeAll(outside);
        return outside.contains("?") ? Set.of() : only;
    }

    /** Each copied table's copy: the rows it reads, with the WHERE conditions that are its own alone. */
    private Optional<List<CopyJoin.TableCopy>> copies(Set<String> copied, Map<String, PlacedTable> sharded, Map<String, Integer> uses,
                                                        Map<String, CopyFilters.Target> top) {
        List<CopyJoin.TableCopy> copies = new ArrayList<>();
        for (String key : copied) {
            PlacedTable table = sharded.get(key);
            String from = "SELECT * FROM " + CopyJoin.quote(table.schema()) + "." + CopyJoin.quote(table.name());
            Tokens.Fragment filter = null;
            CopyFilters.Target target = top.get(key);
            if (target != null && uses.get(key) == 1) {
                List<CopyFilters.Target> others = top.containsKey("") ? null
                        : top.entrySet().stream().filter(e -> !e.getKey().equals(key)).map(Map.Entry::getValue).toList();
                filter = new CopyFilters(context.tokens()).forTable(target, others).orElse(null);
                if (filter != null && !target.alias().equalsIgnoreCase(table.name())) {
                    from += " AS " + CopyJoin.quote(target.alias());
                }
            }
            String text = filter == null ? from : from + " WHERE " + filter.text();
            Plan rows;
            try {
                rows = planner.plan(text, context.resolver().currentSchema());
            } catch (ShardgateException e) {
                return Optional.empty();
            }
            List<io.shardgate.router.plan.ValueSource> parameters = filter == null ? List.of() : filter.parameters();
            if (rows.parameterCount() != parameters.size()) {
                return Optional.empty();
            }
            copies.add(new CopyJoin.TableCopy(table.schema(), table.name(), rows.root(), parameters, text));
        }
        return Optional.of(copies);
    }

    /**
     * The tables of the top-level FROM that no outer join makes nullable, by key, with what their columns
     * are called; key "" when it holds something whose columns are unknown (a derived table, a table the
     * catalog does not know). Empty for a UNION or a statement with WITH.
     */
    private Map<String, CopyFilters.Target> topLevelTables() {
        Map<String, CopyFilters.Target> out = new LinkedHashMap<>();
        if (!(statement instanceof SQLSelectStatement select) || select.getSelect().getWithSubQuery() != null || !(select.getSelect().getQuery() instanceof SQLSelectQueryBlock block)
                || block.getFrom() == null) {
            return out;
        }
        collect(block.getFrom(), false, out);
        return out;
    }

    private void collect(SQLTableSource source, boolean nullable, Map<String, CopyFilters.Target> out) {
        if (source instanceof SQLJoinTableSource join) {
            SQLJoinTableSource.JoinType type = join.getJoinType();
            boolean inner = switch (type) {
                case COMMA, JOIN, INNER_JOIN, CROSS_JOIN, STRAIGHT_JOIN, NATURAL_JOIN, NATURAL_INNER_JOIN, NATURAL_CROSS_JOIN -> true;
                default -> false;
            };
            boolean left = type == SQLJoinTableSource.JoinType.LEFT_OUTER_JOIN || type == SQLJoinTableSource.JoinType.NATURAL_LEFT_JOIN;
            boolean right = type == SQLJoinTableSource.JoinType.RIGHT_OUTER_JOIN || type == SQLJoinTableSource.JoinType.NATURAL_RIGHT_JOIN;
            collect(join.getLeft(), nullable || !(inner || left), out);
            collect(join.getRight(), nullable || !(inner || right), out);
            return;
        }
        if (!(source instanceof SQLExprTableSource table) || table.getTableName() == null) {
            out.put("", new CopyFilters.Target("", "", Set.of()));
            return;
        }
        String schemaName = Names.plain(table.getSchema());
        String name = Names.plain(table.getTableName());
        PlacedTable placed;
        try {
            placed = context.resolver().resolve(schemaName, name);
        } catch (ShardgateException e) {
            out.put("", new CopyFilters.Target("", "", Set.of()));
            return;
        }
        Set<String> columns = CopyFilters.columns(context, placed.schema(), placed.name());
        String alias = table.getAlias() != null ? Names.plain(table.getAlias()) : name;
        CopyFilters.Target target = new CopyFilters.Target(alias, name, columns);
        String key = TableResolver.key(placed.schema(), placed.name());
        if (columns.isEmpty()) {
            out.put("", target);
        }
        if (!nullable) {
            out.put(key, target);
        } else {
            // Known columns still count against an unqualified column another table may own.
            out.put(key + "#nullable", target);
        }
    }
}
