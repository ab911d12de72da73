package io.shardgate.storage.ddl;

import com.alibaba.druid.sql.ast.SQLExpr;
import com.alibaba.druid.sql.ast.SQLName;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableAddColumn;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableAddConstraint;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableAddIndex;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableConvertCharSet;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableDropColumnItem;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableDropForeignKey;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableDropIndex;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableDropKey;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableDropPrimaryKey;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableItem;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableRename;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableRenameColumn;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableRenameIndex;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableStatement;
import com.alibaba.druid.sql.ast.statement.SQLColumnConstraint;
import com.alibaba.druid.sql.ast.statement.SQLColumnDefinition;
import com.alibaba.druid.sql.ast.statement.SQLColumnPrimaryKey;
import com.alibaba.druid.sql.ast.statement.SQLColumnReference;
import com.alibaba.druid.sql.ast.statement.SQLColumnUniqueKey;
import com.alibaba.druid.sql.ast.statement.SQLConstraint;
import com.alibaba.druid.sql.ast.statement.SQLCreateIndexStatement;
import com.alibaba.druid.sql.ast.statement.SQLDropIndexStatement;
import com.alibaba.druid.sql.ast.statement.SQLForeignKeyConstraint;
import com.alibaba.druid.sql.dialect.mysql.ast.MySqlKey;
import com.alibaba.druid.sql.dialect.mysql.ast.MySqlPrimaryKey;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlAlterTableAlgorithm;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlAlterTableAlterColumn;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlAlterTableChangeColumn;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlAlterTableForce;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlAlterTableLock;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlAlterTableModifyColumn;
import io.shardgate.storage.Engine;
import io.shardgate.storage.capability.AlterOperation;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Sorts the items of a parsed ALTER TABLE (and CREATE/DROP INDEX) into {@link AlterOperation}s,
 * and reads the ALGORITHM and LOCK it asks for. An item it does not know is
 * {@link AlterOperation#OTHER}, which the online-DDL table treats as blocking.
 */
final class AlterClassifier {
    private static final Set<String> REBUILD_OPTIONS = Set.of("ROW_FORMAT", "KEY_BLOCK_SIZE", "PAGE_COMPRESSED",
            "PAGE_COMPRESSION_LEVEL", "ENCRYPTED", "ENCRYPTION_KEY_ID");

    private AlterClassifier() {
    }

    static AlterRequest alter(SQLAlterTableStatement alter, TableOptions options, Engine shardEngine) {
        Set<AlterOperation> operations = EnumSet.noneOf(AlterOperation.class);
        Optional<String> algorithm = Optional.empty();
        Optional<String> lock = alter.isOnline() ? Optional.of("NONE") : Optional.empty();
        for (SQLAlterTableItem item : alter.getItems()) {
            if (item instanceof MySqlAlterTableAlgorithm requested) {
                algorithm = Optional.of(word(requested.getAlgorithmType()));
            } else if (item instanceof MySqlAlterTableLock requested) {
                lock = Optional.of(word(requested.getLockType()));
            } else {
                classify(item, operations);
            }
        }
        options.values().forEach((name, value) -> {
            if (name.equals("ENGINE")) {
                operations.add(value.equalsIgnoreCase(shardEngine.serverName())
                        ? AlterOperation.REBUILD : AlterOperation.CHANGE_ENGINE);
            } else if (name.equals("AUTO_INCREMENT")) {
                operations.add(AlterOperation.CHANGE_AUTO_INCREMENT);
            } else if (REBUILD_OPTIONS.contains(name)) {
                operations.add(AlterOperation.REBUILD);
            } else {
                operations.add(AlterOperation.TABLE_OPTIONS);
            }
        });
        if (alter.getPartition() != null || alter.isIgnore()) {
            operations.add(AlterOperation.OTHER);
        }
        return new AlterRequest(operations, algorithm, lock, Optional.of(", "));
    }

    static AlterRequest createIndex(SQLCreateIndexStatement create) {
        AlterOperation operation = switch (FeatureFinder.indexKind(create.getType(), create.getIndexDefinition())) {
            case "FULLTEXT" -> AlterOperation.ADD_FULLTEXT_INDEX;
            case "SPATIAL" -> AlterOperation.ADD_SPATIAL_INDEX;
            default -> AlterOperation.ADD_INDEX;
        };
        var options = create.getIndexDefinition().getOptions();
        return new AlterRequest(EnumSet.of(operation), word(options.getAlgorithm()), word(options.getLock()), Optional.of(" "));
    }

    static AlterRequest dropIndex(SQLDropIndexStatement drop) {
        AlterOperation operation = isPrimary(drop.getIndexName())
                ? AlterOperation.DROP_PRIMARY_KEY : AlterOperation.DROP_INDEX;
        return new AlterRequest(EnumSet.of(operation), optionalWord(drop.getAlgorithm()),
                optionalWord(drop.getLockOption()), Optional.empty());
    }

    private static void classify(SQLAlterTableItem item, Set<AlterOperation> operations) {
        if (item instanceof com.alibaba.druid.sql.ast.statement.SQLAlterTableDisableKeys
                || item instanceof com.alibaba.druid.sql.ast.statement.SQLAlterTableEnableKeys) {
            // No operation on a transactional engine (the server notes 1031): mariadb-dump wraps every table's rows in them.
            return;
        }
        if (item instanceof SQLAlterTableAddIndex index) {
            operations.add(switch (FeatureFinder.indexKind(index.getType(), index.getIndexDefinition())) {
                case "FULLTEXT" -> AlterOperation.ADD_FULLTEXT_INDEX;
                case "SPATIAL" -> AlterOperation.ADD_SPATIAL_INDEX;
                default -> AlterOperation.ADD_INDEX;
            });
        } else if (item instanceof SQLAlterTableAddConstraint add) {
            operations.add(constraint(add.getConstraint()));
        } else if (item instanceof SQLAlterTableDropIndex drop) {
            operations.add(isPrimary(drop.getIndexName()) ? AlterOperation.DROP_PRIMARY_KEY : AlterOperation.DROP_INDEX);
        } else if (item instanceof SQLAlterTableDropKey drop) {
            operations.add(isPrimary(drop.getKeyName()) ? AlterOperation.DROP_PRIMARY_KEY : AlterOperation.DROP_INDEX);
        } else if (item instanceof SQLAlterTableDropPrimaryKey) {
            operations.add(AlterOperation.DROP_PRIMARY_KEY);
        } else if (item instanceof SQLAlterTableDropForeignKey) {
            operations.add(AlterOperation.DROP_FOREIGN_KEY);
        } else if (item instanceof SQLAlterTableAddColumn add) {
            for (SQLColumnDefinition column : add.getColumns()) {
                operations.add(column.isAutoIncrement() ? AlterOperation.ADD_AUTO_INCREMENT_COLUMN : AlterOperation.ADD_COLUMN);
                inlineConstraints(column, operations);
            }
        } else if (item instanceof SQLAlterTableDropColumnItem) {
            operations.add(AlterOperation.DROP_COLUMN);
        } else if (item instanceof MySqlAlterTableModifyColumn modify) {
            operations.add(AlterOperation.MODIFY_COLUMN);
            inlineConstraints(modify.getNewColumnDefinition(), operations);
        } else if (item instanceof MySqlAlterTableChangeColumn change) {
            operations.add(AlterOperation.MODIFY_COLUMN);
            inlineConstraints(change.getNewColumnDefinition(), operations);
        } else if (item instanceof SQLAlterTableRenameColumn) {
            operations.add(AlterOperation.RENAME_COLUMN);
        } else if (item instanceof SQLAlterTableRenameIndex) {
            operations.add(AlterOperation.RENAME_INDEX);
        } else if (item instanceof SQLAlterTableRename) {
            operations.add(AlterOperation.RENAME_TABLE);
        } else if (item instanceof MySqlAlterTableAlterColumn) {
            operations.add(AlterOperation.CHANGE_COLUMN_DEFAULT);
        } else if (item instanceof MySqlAlterTableForce) {
            operations.add(AlterOperation.REBUILD);
        } else if (item instanceof SQLAlterTableConvertCharSet) {
            operations.add(AlterOperation.CONVERT_CHARSET);
        } else {
            operations.add(AlterOperation.OTHER);
        }
    }

    private static AlterOperation constraint(SQLConstraint constraint) {
        if (constraint instanceof MySqlPrimaryKey) {
            return AlterOperation.ADD_PRIMARY_KEY;
        }
        if (constraint instanceof SQLForeignKeyConstraint) {
            return AlterOperation.ADD_FOREIGN_KEY;
        }
        if (constraint instanceof MySqlKey key) {
            return switch (FeatureFinder.indexKind(key.getIndexType(), key.getIndexDefinition())) {
                case "FULLTEXT" -> AlterOperation.ADD_FULLTEXT_INDEX;
                case "SPATIAL" -> AlterOperation.ADD_SPATIAL_INDEX;
                default -> AlterOperation.ADD_INDEX;
            };
        }
        return AlterOperation.OTHER;
    }

    private static void inlineConstraints(SQLColumnDefinition column, Set<AlterOperation> operations) {
        if (column == null) {
            return;
        }
        for (SQLColumnConstraint constraint : column.getConstraints()) {
            if (constraint instanceof SQLColumnPrimaryKey) {
                operations.add(AlterOperation.ADD_PRIMARY_KEY);
            } else if (constraint instanceof SQLColumnUniqueKey) {
                operations.add(AlterOperation.ADD_INDEX);
            } else if (constraint instanceof SQLColumnReference) {
                operations.add(AlterOperation.ADD_FOREIGN_KEY);
            }
        }
    }

    private static boolean isPrimary(SQLName name) {
        return name != null && name.getSimpleName().replace("`", "").equalsIgnoreCase("PRIMARY");
    }

    private static String word(SQLExpr expr) {
        return expr.toString().replace("`", "").trim().toUpperCase(Locale.ROOT);
    }

    private static Optional<String> optionalWord(SQLExpr expr) {
        return expr == null ? Optional.empty() : Optional.of(word(expr));
    }

    private static Optional<String> word(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim().toUpperCase(Locale.ROOT));
    }
}
