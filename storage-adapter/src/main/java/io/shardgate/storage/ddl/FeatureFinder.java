package io.shardgate.storage.ddl;

import com.alibaba.druid.DbType;
import com.alibaba.druid.sql.SQLUtils;
import com.alibaba.druid.sql.ast.SQLDataType;
import com.alibaba.druid.sql.ast.SQLIndexDefinition;
import com.alibaba.druid.sql.ast.SQLObject;
import com.alibaba.druid.sql.ast.SQLStatement;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableAddIndex;
import com.alibaba.druid.sql.ast.statement.SQLColumnDefinition;
import com.alibaba.druid.sql.ast.statement.SQLColumnReference;
import com.alibaba.druid.sql.ast.statement.SQLCreateIndexStatement;
import com.alibaba.druid.sql.ast.statement.SQLForeignKeyImpl;
import com.alibaba.druid.sql.dialect.mysql.ast.MySqlKey;
import com.alibaba.druid.sql.dialect.mysql.ast.MysqlForeignKey;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlTableIndex;
import com.alibaba.druid.sql.dialect.mysql.visitor.MySqlASTVisitorAdapter;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Walks a parsed CREATE TABLE, ALTER TABLE or CREATE INDEX and lists every use of a foreign key
 * (table-level or inline {@code REFERENCES}), a FULLTEXT index, and a spatial column type or
 * SPATIAL index, with the clause that uses it. One finder per statement.
 */
final class FeatureFinder extends MySqlASTVisitorAdapter {
    private static final Set<String> SPATIAL_TYPES = Set.of("GEOMETRY", "POINT", "LINESTRING", "POLYGON",
            "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON", "GEOMETRYCOLLECTION", "GEOMCOLLECTION");

    private final List<FeatureUse> uses = new ArrayList<>();

    static List<FeatureUse> find(SQLStatement statement) {
        FeatureFinder finder = new FeatureFinder();
        statement.accept(finder);
        return List.copyOf(finder.uses);
    }

    @Override
    public boolean visit(SQLColumnDefinition column) {
        SQLDataType type = column.getDataType();
        if (type != null && SPATIAL_TYPES.contains(type.getName().toUpperCase(Locale.ROOT))) {
            uses.add(new FeatureUse(Feature.SPATIAL, column.getNameAsString() + " " + type.getName()));
        }
        return true;
    }

    @Override
    public boolean visit(SQLColumnReference reference) {
        String column = reference.getParent() instanceof SQLColumnDefinition definition
                ? definition.getNameAsString() + " " : "";
        uses.add(new FeatureUse(Feature.FOREIGN_KEY, column + sql(reference)));
        return true;
    }

    @Override
    public boolean visit(MysqlForeignKey foreignKey) {
        uses.add(new FeatureUse(Feature.FOREIGN_KEY, sql(foreignKey)));
        return true;
    }

    @Override
    public boolean visit(SQLForeignKeyImpl foreignKey) {
        uses.add(new FeatureUse(Feature.FOREIGN_KEY, sql(foreignKey)));
        return true;
    }

    @Override
    public boolean visit(MySqlKey key) {
        index(key, key.getIndexType(), key.getIndexDefinition());
        return true;
    }

    @Override
    public boolean visit(MySqlTableIndex index) {
        index(index, index.getIndexType(), index.getIndexDefinition());
        return true;
    }

    @Override
    public boolean visit(SQLAlterTableAddIndex index) {
        index(index, index.getType(), index.getIndexDefinition());
        return true;
    }

    @Override
    public boolean visit(SQLCreateIndexStatement index) {
        index(index, index.getType(), index.getIndexDefinition());
        return true;
    }

    private void index(SQLObject node, String type, SQLIndexDefinition definition) {
        String kind = indexKind(type, definition);
        if (kind.equals("FULLTEXT")) {
            uses.add(new FeatureUse(Feature.FULLTEXT_INDEX, sql(node)));
        } else if (kind.equals("SPATIAL")) {
            uses.add(new FeatureUse(Feature.SPATIAL, sql(node)));
        }
    }

    /** FULLTEXT, SPATIAL, UNIQUE or "" from whichever of Druid's two places holds it. */
    static String indexKind(String type, SQLIndexDefinition definition) {
        String kind = type;
        if ((kind == null || kind.isEmpty()) && definition != null) {
            kind = definition.getType();
        }
        return kind == null ? "" : kind.toUpperCase(Locale.ROOT);
    }

    /** A node as one line of SQL. */
    static String sql(SQLObject node) {
        return SQLUtils.toSQLString(node, DbType.mysql).replaceAll("\\s+", " ").trim();
    }
}
