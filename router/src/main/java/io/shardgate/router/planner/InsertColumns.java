package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLExpr;
import io.shardgate.errors.ErrorCode;
import io.shardgate.router.schema.TableColumns;

import java.util.List;
import java.util.Optional;

/**
 * The implicit column list of {@code INSERT INTO t VALUES (...)} into a sharded table: the table's columns
 * in order, generated ones included (MariaDB wants a value, or DEFAULT, for each of them), as the shards
 * reported them last ({@link io.shardgate.router.schema.ColumnCatalog}, no I/O). Refused with 1235 while they
 * are not known, or while the shards disagree on them; a row with another number of values is MariaDB's 1136.
 */
final class InsertColumns {
    private InsertColumns() {
    }

    /** The table's column names, in order; {@code rows} (empty for none) must each have one value per column. */
    static List<String> implicit(PlanContext context, PlacedTable table, List<List<SQLExpr>> rows) {
        TableColumns columns = known(context, table);
        for (int r = 0; r < rows.size(); r++) {
            if (rows.get(r).isEmpty()) {
                // VALUES (): every column's default, the shard key's too, which Shardgate cannot know.
                throw ErrorCode.UNSUPPORTED.exception("a row of defaults (VALUES ()) in an INSERT into sharded table " + table.qualified());
            }
            if (rows.get(r).size() != columns.columns().size()) {
                throw ErrorCode.COLUMN_COUNT_MISMATCH.exception(r + 1);
            }
        }
        return columns.names();
    }

    /** The table's columns when they are known and every shard agrees on them; empty otherwise (no error). */
    static Optional<TableColumns> ifKnown(PlanContext context, PlacedTable table) {
        Optional<TableColumns> columns = lookup(context, table);
        return columns.isPresent() && conflict(context, table).isEmpty() ? columns : Optional.empty();
    }

    private static TableColumns known(PlanContext context, PlacedTable table) {
        Optional<TableColumns> columns = lookup(context, table);
        if (columns.isEmpty()) {
            throw ErrorCode.UNSUPPORTED.exception("INSERT without a column list into sharded table " + table.qualified()
                    + " yet: its columns are not known (they are read from the shards at startup, after DDL and by the periodic"
                    + " schema check); name the columns");
        }
        conflict(context, table).ifPresent(conflict -> {
            throw ErrorCode.UNSUPPORTED.exception("INSERT without a column list into sharded table " + table.qualified()
                    + " while its shards disagree on its columns (" + conflict + "); name the columns");
        });
        return columns.get();
    }

    private static Optional<TableColumns> lookup(PlanContext context, PlacedTable table) {
        return context.columns().columns(table.schema(), spelling(context, table));
    }

    private static Optional<String> conflict(PlanContext context, PlacedTable table) {
        return context.columns().conflict(table.schema(), spelling(context, table));
    }

    /** The table's name as the statement writes it when the catalog knows that spelling, else as the sharding schema spells it. */
    private static String spelling(PlanContext context, PlacedTable table) {
        return context.columns().columns(table.schema(), table.name()).isPresent() ? table.name() : table.rule().name();
    }
}
