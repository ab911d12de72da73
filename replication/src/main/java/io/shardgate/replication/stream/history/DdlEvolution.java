package io.shardgate.replication.stream.history;

import com.alibaba.druid.DbType;
import com.alibaba.druid.sql.SQLUtils;
import com.alibaba.druid.sql.ast.SQLStatement;
import com.alibaba.druid.sql.ast.statement.SQLAlterDatabaseStatement;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableStatement;
import com.alibaba.druid.sql.ast.statement.SQLAssignItem;
import com.alibaba.druid.sql.ast.statement.SQLColumnDefinition;
import com.alibaba.druid.sql.ast.statement.SQLCreateDatabaseStatement;
import com.alibaba.druid.sql.ast.statement.SQLCreateIndexStatement;
import com.alibaba.druid.sql.ast.statement.SQLCreateTableStatement;
import com.alibaba.druid.sql.ast.statement.SQLDropDatabaseStatement;
import com.alibaba.druid.sql.ast.statement.SQLDropIndexStatement;
import com.alibaba.druid.sql.ast.statement.SQLDropTableStatement;
import com.alibaba.druid.sql.ast.statement.SQLExprTableSource;
import com.alibaba.druid.sql.ast.statement.SQLPrimaryKey;
import com.alibaba.druid.sql.ast.statement.SQLTableElement;
import com.alibaba.druid.sql.ast.statement.SQLTruncateStatement;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlRenameTableStatement;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * Follows one logged DDL statement on the history's {@link Tables}, parsed with Druid's MySQL
 * parser (never patterns over SQL text).
 *
 * <p>Understood: {@code CREATE [OR REPLACE] TABLE [IF NOT EXISTS]} with columns, {@code CREATE
 * TABLE ... LIKE}, {@code DROP TABLE}, {@code RENAME TABLE} (several pairs, in order), {@code ALTER
 * TABLE} (see {@link AlterTable}), {@code DROP DATABASE}, database character sets; index DDL and
 * {@code TRUNCATE} change no columns. A statement about a table that the parser cannot read, or
 * that holds a clause the history cannot follow ({@code CREATE TABLE ... SELECT}), marks that
 * table's shape unknown; when not even the table can be told, every table of the statement's
 * schemas is marked. Nothing is guessed.
 */
final class DdlEvolution {
    private DdlEvolution() {
    }

    /**
     * @param schemas the schemas the statement changes as the classifier read them (for a
     *                statement whose table cannot be told)
     */
    static void apply(Tables tables, String defaultSchema, String sql, List<String> schemas) {
        requireNonNull(tables, "tables is null");
        String db = defaultSchema == null ? "" : defaultSchema;
        String opened = ExecutableComments.open(sql);
        String replaced = StatementTable.withoutOrReplace(opened);
        if (replaced != null) {
            opened = replaced;
        }
        SQLStatement statement;
        try {
            statement = SQLUtils.parseSingleStatement(opened, DbType.mariadb);
        } catch (RuntimeException e) {
            // A ParserException, or another exception Druid throws on input it cannot read.
            unknown(tables, db, opened, schemas);
            return;
        }
        try {
            follow(tables, db, statement, opened, schemas);
        } catch (RuntimeException e) {
            // A syntax tree shaped other than expected (a name that is an expression, ...): not understood.
            unknown(tables, db, opened, schemas);
        }
    }

    private static void follow(Tables tables, String db, SQLStatement statement, String sql, List<String> schemas) {
        if (statement instanceof SQLCreateTableStatement create) {
            createTable(tables, db, create);
        } else if (statement instanceof SQLAlterTableStatement alter) {
            TableName name = DruidNames.table(alter.getName(), db);
            AlterTable.apply(tables, name, alter);
        } else if (statement instanceof MySqlRenameTableStatement rename) {
            for (MySqlRenameTableStatement.Item item : rename.getItems()) {
                renameTable(tables, DruidNames.table(item.getName(), db), DruidNames.table(item.getTo(), db));
            }
        } else if (statement instanceof SQLDropTableStatement drop) {
            if (drop.isTemporary()) {
                return;
            }
            for (SQLExprTableSource source : drop.getTableSources()) {
                tables.drop(DruidNames.table(source.getExpr(), db));
            }
        } else if (statement instanceof SQLDropDatabaseStatement drop) {
            String schema = DruidNames.unquote(drop.getDatabaseName());
            tables.inSchema(schema).forEach(tables::drop);
            tables.databaseCharset(schema, null);
        } else if (statement instanceof SQLCreateDatabaseStatement create) {
            String schema = DruidNames.unquote(create.getDatabaseName());
            tables.databaseCharset(schema, DruidNames.charset(create.getCharacterSet(), create.getCollate()));
        } else if (statement instanceof SQLAlterDatabaseStatement alter) {
            // Read again from the source when next needed.
            tables.databaseCharset(alter.getName() == null ? db : DruidNames.unquote(alter.getName().getSimpleName()), null);
        } else if (!(statement instanceof SQLCreateIndexStatement || statement instanceof SQLDropIndexStatement
                || statement instanceof SQLTruncateStatement)) {
            if (mentionsTable(sql)) {
                unknown(tables, db, sql, schemas);
            }
            // Views, sequences and the like change no table's columns.
        }
    }

    private static void createTable(Tables tables, String db, SQLCreateTableStatement create) {
        if (create.isTemporary()) {
            return;
        }
        TableName name = DruidNames.table(create.getName(), db);
        if (create.isIfNotExists() && tables.exists(name)) {
            return;
        }
        if (create.getLike() != null) {
            TableShape source = tables.shape(DruidNames.table(create.getLike().getExpr(), db));
            if (source == null) {
                tables.unknown(name);
            } else {
                tables.put(source.renamedTo(name));
            }
            return;
        }
        if (create.getSelect() != null) {
            // The columns come from a query the history cannot evaluate.
            tables.unknown(name);
            return;
        }
        String charset = tableCharset(create.getTableOptions());
        if (charset == null) {
            charset = tables.databaseCharset(name.schema());
        }
        List<ColumnShape> columns = new ArrayList<>();
        List<String> key = new ArrayList<>();
        for (SQLTableElement element : create.getTableElementList()) {
            if (element instanceof SQLColumnDefinition definition) {
                columns.add(DruidNames.column(definition, charset));
                if (DruidNames.declaresPrimaryKey(definition)) {
                    key.add(DruidNames.unquote(definition.getColumnName()));
                }
            } else if (element instanceof SQLPrimaryKey primary) {
                key.addAll(DruidNames.indexColumns(primary.getColumns()));
            }
        }
        tables.put(AlterTable.withKeyNotNull(new TableShape(name, columns, key, charset)));
    }

    private static void renameTable(Tables tables, TableName from, TableName to) {
        TableShape shape = tables.shape(from);
        boolean existed = tables.exists(from);
        tables.drop(from);
        if (shape != null) {
            tables.put(shape.renamedTo(to));
        } else if (existed || !tables.exists(to)) {
            tables.unknown(to);
        }
    }

    /** The character set named by table options ({@code [DEFAULT] CHARSET=x}, {@code COLLATE=y}); null for none. */
    static String tableCharset(List<SQLAssignItem> options) {
        String declared = null;
        String collation = null;
        for (SQLAssignItem option : options) {
            String key = option.getTarget().toString().toUpperCase(Locale.ROOT).replace("DEFAULT", "").trim();
            String value = option.getValue() == null ? null : option.getValue().toString();
            if (key.equals("CHARSET") || key.equals("CHARACTER SET") || key.equals("CHARACTER_SET")) {
                declared = value;
            } else if (key.equals("COLLATE")) {
                collation = value;
            }
        }
        return DruidNames.charset(declared, collation);
    }

    /**
     * For a statement that cannot be followed: the one table it names after {@code TABLE}, read
     * with Druid's lexer, else every table the history holds in its schemas.
     */
    private static void unknown(Tables tables, String db, String sql, List<String> schemas) {
        TableName named = StatementTable.find(sql, db);
        if (named != null) {
            tables.unknown(named);
            return;
        }
        List<String> affected = schemas.isEmpty() && !db.isEmpty() ? List.of(db) : schemas;
        for (String schema : affected) {
            tables.inSchema(schema).forEach(tables::unknown);
        }
    }

    private static boolean mentionsTable(String sql) {
        return StatementTable.find(sql, "?") != null;
    }
}
