package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLExpr;
import com.alibaba.druid.sql.ast.SQLObject;
import com.alibaba.druid.sql.ast.expr.SQLIdentifierExpr;
import com.alibaba.druid.sql.ast.expr.SQLPropertyExpr;

import java.util.List;
import java.util.Optional;

/**
 * Finds which table occurrence a column reference names, without knowing the tables' columns:
 * {@code o.customer_id} by alias or table name, searching outward through enclosing scopes as MySQL
 * does for correlated subqueries; an unqualified name only when it is the shard key of exactly one
 * sharded table of its own scope (MySQL would call any other table having it ambiguous).
 */
final class ColumnResolver {

    /** A column of one table occurrence. */
    record Column(TableUse use, String name) {
        boolean isShardKey() {
            return use.table().sharded() && use.table().shardedRule().isShardKey(name);
        }
    }

    private final List<TableUse> uses;

    ColumnResolver(List<TableUse> uses) {
        this.uses = uses;
    }

    Optional<Column> resolve(SQLExpr expr) {
        if (expr instanceof SQLPropertyExpr property) {
            return qualified(property);
        }
        if (expr instanceof SQLIdentifierExpr identifier) {
            String name = Names.plain(identifier.getName());
            SQLObject scope = Scopes.scopeOf(identifier);
            List<TableUse> candidates = uses.stream()
                    .filter(u -> u.scope() == scope && u.table().sharded() && u.table().shardedRule().isShardKey(name))
                    .toList();
            return candidates.size() == 1 ? Optional.of(new Column(candidates.get(0), name.toLowerCase(java.util.Locale.ROOT)))
                    : Optional.empty();
        }
        return Optional.empty();
    }

    private Optional<Column> qualified(SQLPropertyExpr property) {
        String column = Names.lower(property.getName());
        String owner;
        String schema = null;
        if (property.getOwner() instanceof SQLIdentifierExpr identifier) {
            owner = Names.plain(identifier.getName());
        }
        else if (property.getOwner() instanceof SQLPropertyExpr qualifiedOwner && qualifiedOwner.getOwner() instanceof SQLIdentifierExpr s) {
            owner = Names.plain(qualifiedOwner.getName());
            schema = Names.plain(s.getName());
        }
        else {
            return Optional.empty();
        }
        for (SQLObject scope = Scopes.scopeOf(property); scope != null; scope = Scopes.scopeOf(scope)) {
            SQLObject current = scope;
            String schemaName = schema;
            List<TableUse> matches = uses.stream()
                    .filter(u -> u.scope() == current && Names.same(u.reference(), owner)
                            && (schemaName == null || Names.same(u.table().schema(), schemaName)))
                    .toList();
            if (matches.size() == 1) {
                return Optional.of(new Column(matches.get(0), column));
            }
            if (!matches.isEmpty()) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }
}
