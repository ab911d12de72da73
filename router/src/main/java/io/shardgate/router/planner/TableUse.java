package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLObject;
import com.alibaba.druid.sql.ast.statement.SQLExprTableSource;

import java.util.List;

/**
 * One occurrence of a table in a statement: where it is (its scope, the query block or DML
 * statement it belongs to), and what about its position matters to sharding.
 *
 * @param source       the table reference
 * @param table        the table and its placement
 * @param alias        its alias, or null
 * @param scope        the SELECT block, UPDATE or DELETE it belongs to
 * @param outermost    whether the scope is the statement's top level (a branch of a top-level UNION counts)
 * @param nullExtended whether it is on the NULL-extended side of an outer join
 * @param derived      whether it is inside a derived table or a common table expression
 * @param partitions   the names of its PARTITION (...) clause, if any
 */
record TableUse(SQLExprTableSource source, PlacedTable table, String alias, SQLObject scope, boolean outermost,
                boolean nullExtended, boolean derived, List<String> partitions) {

    /** The name a qualified column uses for it: its alias, else its table name. */
    String reference() {
        return alias != null ? alias : table.name();
    }

    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }

    @Override
    public String toString() {
        return table.qualified() + (alias != null ? " " + alias : "");
    }
}
