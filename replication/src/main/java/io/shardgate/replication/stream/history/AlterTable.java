package io.shardgate.replication.stream.history;

import com.alibaba.druid.sql.ast.SQLName;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableAddColumn;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableAddConstraint;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableAddIndex;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableConvertCharSet;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableDisableKeys;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableDropCheck;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableDropColumnItem;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableDropConstraint;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableDropForeignKey;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableDropIndex;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableDropKey;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableDropPrimaryKey;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableEnableKeys;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableItem;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableRename;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableRenameColumn;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableRenameIndex;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableSetComment;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableStatement;
import com.alibaba.druid.sql.ast.statement.SQLColumnDefinition;
import com.alibaba.druid.sql.ast.statement.SQLPrimaryKey;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlAlterTableAlgorithm;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlAlterTableAlterColumn;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlAlterTableChangeColumn;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlAlterTableForce;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlAlterTableLock;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlAlterTableModifyColumn;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlAlterTableOption;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlAlterTableOrderBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Follows {@code ALTER TABLE}: ADD/DROP/MODIFY/CHANGE/RENAME COLUMN (with FIRST/AFTER), ADD/DROP
 * PRIMARY KEY, {@code CONVERT TO CHARACTER SET}, the table's default character set and
 * {@code RENAME TO}. Items that change no column (indexes, keys other than the primary one,
 * ALGORITHM, LOCK, comments, defaults) are passed over; any other item makes the table's shape
 * unknown.
 */
final class AlterTable {
    private static final Set<Class<?>> NO_COLUMN_CHANGE = Set.of(SQLAlterTableAddIndex.class,
            SQLAlterTableDropIndex.class, SQLAlterTableDropKey.class, SQLAlterTableDropForeignKey.class,
            SQLAlterTableDropConstraint.class, SQLAlterTableDropCheck.class, SQLAlterTableRenameIndex.class,
            SQLAlterTableEnableKeys.class, SQLAlterTableDisableKeys.class, SQLAlterTableSetComment.class,
            MySqlAlterTableAlgorithm.class, MySqlAlterTableLock.class, MySqlAlterTableForce.class,
            MySqlAlterTableAlterColumn.class, MySqlAlterTableOrderBy.class);

    private final List<ColumnShape> columns;
    private final List<String> key;
    private String charset;

    private AlterTable(TableShape shape) {
        this.columns = new ArrayList<>(shape.columns());
        this.key = new ArrayList<>(shape.primaryKey());
        this.charset = shape.defaultCharset();
    }

    static void apply(Tables tables, TableName name, SQLAlterTableStatement alter) {
        TableShape shape = tables.shape(name);
        if (shape == null) {
            tables.unknown(name);
            return;
        }
        AlterTable table = new AlterTable(shape);
        String optionCharset = DdlEvolution.tableCharset(alter.getTableOptions());
        if (optionCharset != null) {
            table.charset = optionCharset;
        }
        TableName newName = name;
        for (SQLAlterTableItem item : alter.getItems()) {
            if (item instanceof SQLAlterTableRename rename) {
                newName = DruidNames.table(rename.getTo().getExpr(), name.schema());
            } else if (!table.follow(item)) {
                tables.unknown(name);
                return;
            }
        }
        TableShape result = withKeyNotNull(new TableShape(newName, table.columns, table.key, table.charset));
        if (!newName.equals(name)) {
            tables.drop(name);
        }
        tables.put(result);
    }

    /** False for an item the history cannot follow. */
    private boolean follow(SQLAlterTableItem item) {
        if (NO_COLUMN_CHANGE.contains(item.getClass())) {
            return true;
        }
        if (item instanceof SQLAlterTableAddColumn add) {
            if (add.isIfNotExists()) {
                return false;
            }
            int at = position(add.isFirst() || add.getFirstColumn() != null, add.getAfterColumn(), columns.size());
            if (at < 0) {
                return false;
            }
            for (SQLColumnDefinition definition : add.getColumns()) {
                columns.add(at++, define(definition));
            }
            return true;
        }
        if (item instanceof SQLAlterTableDropColumnItem drop) {
            for (SQLName column : drop.getColumns()) {
                int index = indexOf(DruidNames.unquote(column.getSimpleName()));
                if (index < 0) {
                    return drop.isIfExists();
                }
                String dropped = columns.remove(index).name();
                key.removeIf(k -> k.equalsIgnoreCase(dropped));
            }
            return true;
        }
        if (item instanceof MySqlAlterTableModifyColumn modify) {
            SQLColumnDefinition definition = modify.getNewColumnDefinition();
            return replace(DruidNames.unquote(definition.getColumnName()), definition,
                    modify.isFirst() || modify.getFirstColumn() != null, modify.getAfterColumn());
        }
        if (item instanceof MySqlAlterTableChangeColumn change) {
            return replace(DruidNames.unquote(change.getColumnName().getSimpleName()), change.getNewColumnDefinition(),
                    change.isFirst() || change.getFirstColumn() != null, change.getAfterColumn());
        }
        if (item instanceof SQLAlterTableRenameColumn rename) {
            String from = DruidNames.unquote(rename.getColumn().getSimpleName());
            String to = DruidNames.unquote(rename.getTo().getSimpleName());
            int index = indexOf(from);
            if (index < 0) {
                return false;
            }
            columns.set(index, columns.get(index).renamed(to));
            key.replaceAll(k -> k.equalsIgnoreCase(from) ? to : k);
            return true;
        }
        if (item instanceof SQLAlterTableAddConstraint add) {
            if (add.getConstraint() instanceof SQLPrimaryKey primary) {
                key.clear();
                key.addAll(DruidNames.indexColumns(primary.getColumns()));
            }
            return true;
        }
        if (item instanceof SQLAlterTableDropPrimaryKey) {
            key.clear();
            return true;
        }
        if (item instanceof SQLAlterTableConvertCharSet convert) {
            String to = DruidNames.charset(convert.getCharset() == null ? null : convert.getCharset().toString(),
                    convert.getCollate() == null ? null : convert.getCollate().toString());
            if (to == null) {
                return false;
            }
            charset = to;
            String columnCharset = to.equals("binary") ? null : to;
            // Text columns take the new set; binary columns stay binary.
            columns.replaceAll(c -> c.charset() == null ? c : c.withCharset(columnCharset));
            return true;
        }
        if (item instanceof MySqlAlterTableOption option) {
            String name = option.getName().toUpperCase(Locale.ROOT).replace("DEFAULT", "").trim();
            String value = option.getValue() == null ? null : option.getValue().toString();
            if (name.equals("CHARSET") || name.equals("CHARACTER SET")) {
                charset = DruidNames.charset(value, null);
            } else if (name.equals("COLLATE")) {
                charset = DruidNames.charset(null, value);
            }
            return true;
        }
        return false;
    }

    private ColumnShape define(SQLColumnDefinition definition) {
        ColumnShape column = DruidNames.column(definition, charset);
        if (DruidNames.declaresPrimaryKey(definition)) {
            key.clear();
            key.add(column.name());
        }
        return column;
    }

    private boolean replace(String from, SQLColumnDefinition definition, boolean first, SQLName after) {
        int index = indexOf(from);
        if (index < 0) {
            return false;
        }
        columns.remove(index);
        ColumnShape column = define(definition);
        key.replaceAll(k -> k.equalsIgnoreCase(from) ? column.name() : k);
        int at = first || after != null ? position(first, after, -1) : index;
        if (at < 0) {
            return false;
        }
        columns.add(at, column);
        return true;
    }

    /** Where FIRST / AFTER c puts a column; {@code otherwise} when neither is given, -1 for an unknown c. */
    private int position(boolean first, SQLName after, int otherwise) {
        if (first) {
            return 0;
        }
        if (after != null) {
            int index = indexOf(DruidNames.unquote(after.getSimpleName()));
            return index < 0 ? -1 : index + 1;
        }
        return otherwise;
    }

    private int indexOf(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(column)) {
                return i;
            }
        }
        return -1;
    }

    /** Primary key columns are NOT NULL, whatever their definition said. */
    static TableShape withKeyNotNull(TableShape shape) {
        List<ColumnShape> columns = new ArrayList<>(shape.columns());
        columns.replaceAll(c -> c.nullable() && shape.primaryKey().stream().anyMatch(c::named)
                ? new ColumnShape(c.name(), c.unsigned(), c.charset(), c.generated(), false) : c);
        return new TableShape(shape.name(), columns, shape.primaryKey(), shape.defaultCharset());
    }
}
