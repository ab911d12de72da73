package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLExpr;
import com.alibaba.druid.sql.ast.SQLName;
import com.alibaba.druid.sql.ast.SQLStatement;
import com.alibaba.druid.sql.ast.statement.SQLShowColumnsStatement;
import com.alibaba.druid.sql.ast.statement.SQLShowCreateTableStatement;
import com.alibaba.druid.sql.ast.statement.SQLShowIndexesStatement;
import com.alibaba.druid.sql.ast.statement.SQLUseStatement;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlExplainStatement;
import io.shardgate.router.plan.PlanNode;
import io.shardgate.router.plan.Route;
import io.shardgate.router.plan.RouteVariant;
import io.shardgate.router.plan.ShardSelection;
import io.shardgate.router.plan.ShardSql;

import java.util.List;
import java.util.Optional;

/**
 * Catalog statements (USE, SHOW, DESCRIBE) are answered by one shard, so a sharded table appears
 * once: the shard of the table they name when it is unsharded, else the first shard.
 * information_schema queries are SELECTs over a schema that is not sharded, so they go to the first
 * shard too.
 */
final class CatalogPlanner {
    private final PlanContext context;

    CatalogPlanner(PlanContext context) {
        this.context = context;
    }

    static boolean isCatalog(SQLStatement statement) {
        String name = statement.getClass().getSimpleName();
        return statement instanceof SQLUseStatement || name.startsWith("SQLShow") || name.startsWith("MySqlShow")
                || (statement instanceof MySqlExplainStatement explain && explain.getStatement() == null);
    }

    PlanNode plan(SQLStatement statement) {
        String shard = table(statement).flatMap(this::homeOf).orElse(context.schema().defaultShard());
        String target = table(statement).map(Aggregates::text).orElse("catalog");
        return new Route(RouteVariant.ONE, target, new ShardSelection.Fixed(List.of(shard)), new ShardSql(context.sql(), List.of()),
                context.role());
    }

    private Optional<String> homeOf(SQLExpr name) {
        String text = Aggregates.text(name);
        int dot = text.lastIndexOf('.');
        String schema = dot < 0 ? null : Names.plain(text.substring(0, dot));
        String table = Names.plain(dot < 0 ? text : text.substring(dot + 1));
        try {
            PlacedTable placed = context.resolver().resolve(schema, table);
            return placed.unsharded() ? Optional.of(placed.home()) : Optional.empty();
        }
        catch (io.shardgate.errors.ShardgateException unknown) {
            return Optional.empty();
        }
    }

    private static Optional<SQLExpr> table(SQLStatement statement) {
        SQLName name = null;
        if (statement instanceof SQLShowCreateTableStatement show) {
            name = show.getName();
        }
        else if (statement instanceof SQLShowColumnsStatement show) {
            name = show.getTable();
        }
        else if (statement instanceof SQLShowIndexesStatement show) {
            return Optional.ofNullable(show.getTable() == null ? null : show.getTable().getExpr());
        }
        else if (statement instanceof MySqlExplainStatement explain) {
            name = explain.getTableName();
        }
        return Optional.ofNullable(name);
    }
}
