package io.shardgate.replication.stream.apply;

import io.shardgate.replication.stream.Column;
import io.shardgate.replication.stream.RowChange;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;

/** A row change's values bound to a prepared statement of {@link RowStatements}, for the row-by-row apply. */
final class RowBinding {
    private RowBinding() {
    }

    /** Binds the row's values from {@code index} on, in {@link RowStatements}' order; returns the next index. */
    static int bindRow(PreparedStatement statement, int index, RowChange row) throws SQLException {
        if (row.after() != null) {
            List<Column> columns = row.table().columns();
            for (int i = 0; i < columns.size(); i++) {
                if (!columns.get(i).generated()) {
                    bind(statement, index++, row.after()[i]);
                }
            }
        }
        if (row.before() != null) {
            for (int key : row.table().keyColumns()) {
                bind(statement, index++, row.before()[key]);
            }
        }
        return index;
    }

    static void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.NULL);
        } else if (value instanceof byte[] bytes) {
            statement.setBytes(index, bytes);
        } else if (value instanceof BigInteger big) {
            statement.setBigDecimal(index, new BigDecimal(big));
        } else if (value instanceof BigDecimal decimal) {
            statement.setBigDecimal(index, decimal);
        } else if (value instanceof Long number) {
            statement.setLong(index, number);
        } else if (value instanceof Integer number) {
            statement.setInt(index, number);
        } else if (value instanceof Float number) {
            statement.setFloat(index, number);
        } else if (value instanceof Double number) {
            statement.setDouble(index, number);
        } else if (value instanceof String text) {
            statement.setString(index, text);
        } else {
            statement.setObject(index, value);
        }
    }
}
