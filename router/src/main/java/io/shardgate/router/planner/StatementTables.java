package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLName;
import com.alibaba.druid.sql.ast.SQLObject;
import com.alibaba.druid.sql.ast.SQLStatement;
import com.alibaba.druid.sql.ast.statement.SQLExprTableSource;
import com.alibaba.druid.sql.ast.statement.SQLJoinTableSource;
import com.alibaba.druid.sql.ast.statement.SQLSubqueryTableSource;
import com.alibaba.druid.sql.ast.statement.SQLTableSource;
import com.alibaba.druid.sql.ast.statement.SQLWithSubqueryClause;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlDeleteStatement;
import com.alibaba.druid.sql.dialect.mysql.visitor.MySqlASTVisitorAdapter;
import io.shardgate.errors.ErrorCode;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Every table a statement reads or writes, with what its position means for sharding. */
final class StatementTables {
    private StatementTables() {
    }

    /**
     * The tables of {@code statement}; {@code topScopes} are the scopes whose tables count as outermost.
     * CTE names and DUAL are not tables; {@code skip} are table references to ignore (DELETE's target list).
     */
    static List<TableUse> of(SQLStatement statement, Set<SQLObject> topScopes, TableResolver resolver, Set<SQLTableSource> skip) {
        Set<String> cteNames = new HashSet<>();
        statement.accept(new MySqlASTVisitorAdapter() {
            @Override
            public boolean visit(SQLWithSubqueryClause.Entry entry) {
                cteNames.add(Names.lower(entry.getAlias()));
                return true;
            }
        });
        List<TableUse> uses = new ArrayList<>();
        statement.accept(new MySqlASTVisitorAdapter() {
            @Override
            public boolean visit(SQLExprTableSource source) {
                if (skip.contains(source) || source.getExpr() == null || !(source.getExpr() instanceof SQLName)) {
                    return true;
                }
                String name = Names.plain(source.getTableName());
                String schema = Names.plain(source.getSchema());
                if (name == null) {
                    // A name the parser took without a table in it, such as MySQL's user@host form in FROM t@.
                    throw ErrorCode.UNSUPPORTED.exception("a table reference without a table name: " + source.getExpr());
                }
                if (schema == null && (name.equalsIgnoreCase("dual") || cteNames.contains(name.toLowerCase(Locale.ROOT)))) {
                    return true;
                }
                SQLObject scope = Scopes.scopeOf(source);
                List<String> partitions = source.getPartitions().stream().map(p -> Names.plain(p.getSimpleName())).toList();
                uses.add(new TableUse(source, resolver.resolve(schema, name), Names.plain(source.getAlias()), scope,
                        scope != null && topScopes.contains(scope), nullExtended(source, scope), derived(source), partitions));
                return true;
            }
        });
        return uses;
    }

    /** The DELETE targets of a multi-table DELETE ({@code DELETE a FROM a JOIN b}): aliases, not tables. */
    static Set<SQLTableSource> deleteTargets(SQLStatement statement) {
        Set<SQLTableSource> targets = Nodes.identitySet();
        if (statement instanceof MySqlDeleteStatement delete && (delete.getFrom() != null || delete.getUsing() != null)) {
            addSources(delete.getTableSource(), targets);
        }
        return targets;
    }

    private static void addSources(SQLTableSource source, Set<SQLTableSource> out) {
        if (source instanceof SQLJoinTableSource join) {
            addSources(join.getLeft(), out);
            addSources(join.getRight(), out);
        }
        else if (source != null) {
            out.add(source);
        }
    }

    private static boolean nullExtended(SQLObject source, SQLObject scope) {
        SQLObject child = source;
        for (SQLObject p = source.getParent(); p != null && p != scope; child = p, p = p.getParent()) {
            if (p instanceof SQLJoinTableSource join) {
                if ((child == join.getRight() && Scopes.leftOuter(join)) || (child == join.getLeft() && Scopes.rightOuter(join))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean derived(SQLObject source) {
        for (SQLObject p = source.getParent(); p != null; p = p.getParent()) {
            if (p instanceof SQLSubqueryTableSource || p instanceof SQLWithSubqueryClause) {
                return true;
            }
        }
        return false;
    }
}
