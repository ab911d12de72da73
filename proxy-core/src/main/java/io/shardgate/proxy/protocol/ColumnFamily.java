package io.shardgate.proxy.protocol;

import io.shardgate.router.exec.Row;

import java.util.List;

/** How the values of a column travel in result rows, from the field type of its definition. */
enum ColumnFamily {
    /** TINY, SHORT, INT24, LONG, LONGLONG, YEAR. */
    INTEGER,
    /** DECIMAL, NEWDECIMAL. */
    DECIMAL,
    /** FLOAT, DOUBLE. */
    FLOATING,
    /** BIT: big-endian bytes. */
    BIT,
    /** DATE, DATETIME, TIMESTAMP. */
    DATE_TIME,
    /** TIME. */
    TIME,
    /** Strings, blobs, ENUM, SET, JSON, GEOMETRY and the NULL type: bytes. */
    BYTES;

    static ColumnFamily of(ColumnDefinition column) {
        return switch (column.type()) {
            case ColumnDefinition.TYPE_TINY, ColumnDefinition.TYPE_SHORT, ColumnDefinition.TYPE_INT24,
                    ColumnDefinition.TYPE_LONG, ColumnDefinition.TYPE_LONGLONG, ColumnDefinition.TYPE_YEAR -> INTEGER;
            case ColumnDefinition.TYPE_DECIMAL, ColumnDefinition.TYPE_NEWDECIMAL -> DECIMAL;
            case ColumnDefinition.TYPE_FLOAT, ColumnDefinition.TYPE_DOUBLE -> FLOATING;
            case ColumnDefinition.TYPE_BIT -> BIT;
            case ColumnDefinition.TYPE_DATE, ColumnDefinition.TYPE_NEWDATE, ColumnDefinition.TYPE_DATETIME,
                    ColumnDefinition.TYPE_DATETIME2, ColumnDefinition.TYPE_TIMESTAMP, ColumnDefinition.TYPE_TIMESTAMP2 -> DATE_TIME;
            case ColumnDefinition.TYPE_TIME, ColumnDefinition.TYPE_TIME2 -> TIME;
            default -> BYTES;
        };
    }

    /** Fails unless {@code row} has one value per column. */
    static void checkRow(List<ColumnDefinition> columns, Row row) {
        if (row.size() != columns.size()) {
            throw new IllegalArgumentException("row values: " + row.size() + " (expected: " + columns.size() + ", one per column)");
        }
    }
}
