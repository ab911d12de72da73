package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLName;
import com.alibaba.druid.sql.ast.SQLStatement;
import com.alibaba.druid.sql.ast.statement.SQLAlterStatement;
import com.alibaba.druid.sql.ast.statement.SQLCreateStatement;
import com.alibaba.druid.sql.ast.statement.SQLCreateTableStatement;
import com.alibaba.druid.sql.ast.statement.SQLDDLStatement;
import com.alibaba.druid.sql.ast.statement.SQLDropStatement;
import com.alibaba.druid.sql.ast.statement.SQLExprTableSource;
import com.alibaba.druid.sql.ast.statement.SQLTruncateStatement;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlRenameTableStatement;
import com.alibaba.druid.sql.dialect.mysql.visitor.MySqlASTVisitorAdapter;
import io.shardgate.errors.ErrorCode;
import io.shardgate.router.exec.Role;
import io.shardgate.router.plan.PlanNode;
import io.shardgate.router.plan.Route;
import io.shardgate.router.plan.RouteVariant;
import io.shardgate.router.plan.ShardSelection;
import io.shardgate.router.plan.ShardSql;
import io.shardgate.router.schema.SchemaRules;
import io.shardgate.router.schema.TableRule;
import io.shardgate.router.schema.UnshardedTable;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Plans DDL: it runs on every shard, all of which must succeed (a partial failure names the shards).
 * DDL naming only unsharded tables of one shard (or of a schema that is not sharded) runs there.
 */
final class DdlPlanner {
    private final PlanContext context;

    DdlPlanner(PlanContext context) {
        this.context = context;
    }

    static boolean isDdl(SQLStatement statement) {
        return statement instanceof SQLDDLStatement || statement instanceof SQLCreateStatement || statement instanceof SQLAlterStatement
                || statement instanceof SQLDropStatement || statement instanceof SQLTruncateStatement
                || statement instanceof MySqlRenameTableStatement;
    }

    PlanNode plan(SQLStatement statement) {
        if (statement instanceof SQLCreateTableStatement create) {
            if (create.isTemporary() && context.resolver().isSharded(Names.plain(create.getTableSource().getSchema()))) {
                throw ErrorCode.UNSUPPORTED.exception("temporary tables in a sharded schema");
            }
            if (create.getSelect() != null) {
                throw ErrorCode.UNSUPPORTED.exception("CREATE TABLE ... SELECT in a sharded schema");
            }
        }
        List<String[]> tables = tables(statement);
        ShardSql sql = new ShardSql(context.sql(), parameters());
        Set<String> homes = new LinkedHashSet<>();
        boolean everywhere = tables.isEmpty();
        for (String[] table : tables) {
            Optional<String> home = home(table[0], table[1]);
            home.ifPresent(homes::add);
            everywhere |= home.isEmpty();
        }
        String current = context.resolver().currentSchema();
        String target = tables.isEmpty() ? "schema"
                : (tables.get(0)[0] != null ? tables.get(0)[0] + "." : current != null ? current + "." : "") + tables.get(0)[1];
        if (!everywhere && homes.size() == 1) {
            return new Route(RouteVariant.ONE, target, new ShardSelection.Fixed(List.copyOf(homes)), sql, Role.PRIMARY);
        }
        return new Route(RouteVariant.ALL, target, new ShardSelection.Fixed(context.schema().shardNames()), sql, Role.PRIMARY);
    }

    /** The one shard a table lives on, if it is unsharded (or in a schema that is not sharded). */
    private Optional<String> home(String schema, String name) {
        String effective = schema != null ? schema : context.resolver().currentSchema();
        if (effective == null) {
            throw ErrorCode.NO_DATABASE_SELECTED.exception();
        }
        Optional<SchemaRules> rules = context.schema().schema(effective);
        if (rules.isEmpty()) {
            return Optional.of(context.schema().defaultShard());
        }
        Optional<TableRule> rule = rules.get().table(name);
        if (rule.isEmpty()) {
            // A table the rules do not list is unsharded on the default shard (TableResolver): created there alone.
            return Optional.of(context.schema().defaultShard());
        }
        return rule.filter(t -> t instanceof UnshardedTable).map(t -> ((UnshardedTable) t).shard());
    }



    private List<io.shardgate.router.plan.ValueSource> parameters() {
        if (context.tokens().parameterCount() > 0) {
            throw ErrorCode.UNSUPPORTED.exception("parameters in DDL");
        }
        return List.of();
    }

    /** Schema and name of each table the statement names (schema null when unqualified). */
    private static List<String[]> tables(SQLStatement statement) {
        List<String[]> tables = new ArrayList<>();
        statement.accept(new MySqlASTVisitorAdapter() {
            @Override
            public boolean visit(SQLExprTableSource source) {
                if (source.getExpr() instanceof SQLName) {
                    if (source.getTableName() == null) {
                        throw ErrorCode.UNSUPPORTED.exception("a table reference without a table name: " + source.getExpr());
                    }
                    tables.add(new String[] {Names.plain(source.getSchema()), Names.plain(source.getTableName())});
                }
                return true;
            }
        });
        if (statement instanceof MySqlRenameTableStatement rename) {
            for (MySqlRenameTableStatement.Item item : rename.getItems()) {
                tables.add(split(item.getName()));
                tables.add(split(item.getTo()));
            }
        }
        return tables;
    }

    private static String[] split(SQLName name) {
        String text = Aggregates.text(name);
        int dot = text.lastIndexOf('.');
        return dot < 0 ? new String[] {null, Names.plain(text)} : new String[] {Names.plain(text.substring(0, dot)), Names.plain(text.substring(dot + 1))};
    }
}
