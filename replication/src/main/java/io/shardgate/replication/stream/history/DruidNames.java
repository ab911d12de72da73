package io.shardgate.replication.stream.history;

import com.alibaba.druid.sql.ast.SQLDataType;
import com.alibaba.druid.sql.ast.SQLDataTypeImpl;
import com.alibaba.druid.sql.ast.SQLExpr;
import com.alibaba.druid.sql.ast.expr.SQLIdentifierExpr;
import com.alibaba.druid.sql.ast.expr.SQLMethodInvokeExpr;
import com.alibaba.druid.sql.ast.expr.SQLPropertyExpr;
import com.alibaba.druid.sql.ast.statement.SQLCharacterDataType;
import com.alibaba.druid.sql.ast.statement.SQLColumnDefinition;
import com.alibaba.druid.sql.ast.statement.SQLColumnPrimaryKey;
import com.alibaba.druid.sql.ast.statement.SQLNotNullConstraint;
import com.alibaba.druid.sql.ast.statement.SQLSelectOrderByItem;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Reads names, column definitions and character sets out of Druid's MySQL syntax tree. */
final class DruidNames {
    /** Types whose values are text in a character set; every other type is binary or not text. */
    private static final Set<String> TEXT_TYPES = Set.of("char", "varchar", "tinytext", "text", "mediumtext",
            "longtext", "long", "enum", "set", "character", "json");
    private static final Set<String> NATIONAL_TYPES = Set.of("nchar", "nvarchar", "national", "nvarchar2",
            "national char", "national varchar", "national character");

    private DruidNames() {
    }

    /** A name as MariaDB stores it: backquotes (and doubled backquotes inside them) removed. */
    static String unquote(String name) {
        if (name.length() >= 2 && (name.charAt(0) == '`' || name.charAt(0) == '"')
                && name.charAt(name.length() - 1) == name.charAt(0)) {
            String quote = String.valueOf(name.charAt(0));
            return name.substring(1, name.length() - 1).replace(quote + quote, quote);
        }
        return name;
    }

    /** {@code db.t} or a bare {@code t} in {@code defaultSchema}. */
    static TableName table(SQLExpr expr, String defaultSchema) {
        if (expr instanceof SQLPropertyExpr property) {
            return new TableName(unquote(property.getOwnerName()), unquote(property.getName()));
        }
        if (expr instanceof SQLIdentifierExpr identifier) {
            return new TableName(defaultSchema, unquote(identifier.getName()));
        }
        throw new IllegalArgumentException("not a table name: " + expr);
    }

    /** The column an index part names ({@code c} or the prefix {@code c(10)}). */
    static String indexColumn(SQLSelectOrderByItem item) {
        SQLExpr expr = item.getExpr();
        if (expr instanceof SQLIdentifierExpr identifier) {
            return unquote(identifier.getName());
        }
        if (expr instanceof SQLMethodInvokeExpr prefix) {
            return unquote(prefix.getMethodName());
        }
        throw new IllegalArgumentException("not a column of a key: " + expr);
    }

    static List<String> indexColumns(List<SQLSelectOrderByItem> items) {
        List<String> columns = new ArrayList<>(items.size());
        items.forEach(item -> columns.add(indexColumn(item)));
        return columns;
    }

    static boolean declaresPrimaryKey(SQLColumnDefinition definition) {
        return definition.getConstraints().stream().anyMatch(c -> c instanceof SQLColumnPrimaryKey);
    }

    /** The column as defined, its character set taken from {@code tableCharset} when it names none. */
    static ColumnShape column(SQLColumnDefinition definition, String tableCharset) {
        String name = unquote(definition.getColumnName());
        SQLDataType type = definition.getDataType();
        String typeName = type.getName().toLowerCase(Locale.ROOT);
        // SERIAL is BIGINT UNSIGNED NOT NULL AUTO_INCREMENT UNIQUE.
        boolean unsigned = type instanceof SQLDataTypeImpl impl && impl.isUnsigned() || typeName.equals("serial");
        boolean generated = definition.getGeneratedAlwaysAs() != null || definition.getAsExpr() != null;
        boolean nullable = !declaresPrimaryKey(definition)
                && definition.getConstraints().stream().noneMatch(c -> c instanceof SQLNotNullConstraint);
        String charset = null;
        if (NATIONAL_TYPES.contains(typeName)) {
            charset = "utf8mb3";
        } else if (typeName.equals("json")) {
            charset = "utf8mb4";
        } else if (TEXT_TYPES.contains(typeName)) {
            String declared = null;
            String collation = null;
            if (type instanceof SQLCharacterDataType text) {
                declared = text.getCharSetName();
                collation = text.getCollate();
            }
            if (declared == null && definition.getCharsetExpr() != null) {
                declared = definition.getCharsetExpr().toString();
            }
            if (collation == null && definition.getCollateExpr() != null) {
                collation = definition.getCollateExpr().toString();
            }
            charset = charset(declared, collation);
            if (charset == null) {
                charset = tableCharset;
            } else if (charset.equals("binary")) {
                charset = null;
            }
        }
        return new ColumnShape(name, unsigned, charset, generated, nullable);
    }

    /**
     * The character set a {@code CHARACTER SET} and/or {@code COLLATE} clause names, or null for
     * neither: a collation's set is its name up to the first underscore ({@code latin1_bin}).
     * {@code utf8} is MariaDB's {@code utf8mb3}.
     */
    static String charset(String declared, String collation) {
        String name = declared;
        if (name == null && collation != null) {
            String bare = unquote(collation.trim());
            int underscore = bare.indexOf('_');
            name = underscore < 0 ? bare : bare.substring(0, underscore);
        }
        if (name == null) {
            return null;
        }
        name = unquote(name.trim()).toLowerCase(Locale.ROOT);
        if (name.startsWith("'") && name.endsWith("'") && name.length() >= 2) {
            name = name.substring(1, name.length() - 1);
        }
        return name.equals("utf8") ? "utf8mb3" : name;
    }
}
