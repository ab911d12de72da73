package io.shardgate.proxy.sharding;

import io.shardgate.proxy.protocol.ColumnDefinition;

import java.util.ArrayList;
import java.util.List;

/**
 * The column definitions of a result read through a cursor, as MariaDB describes them. MariaDB materialises a
 * cursor's rows in a temporary table at execute and describes that table's fields, not the statement's items, so
 * the definitions differ from a plain execute's (MariaDB 10.11, recorded with a raw client, same statement both ways):
 * <ul>
 *   <li>every column loses the flags of its table's keys and defaults (PRI_KEY, UNIQUE_KEY, MULTIPLE_KEY,
 *       AUTO_INCREMENT, TIMESTAMP, ON_UPDATE_NOW, PART_KEY): {@code id INT PRIMARY KEY} 0x5003 becomes 0x1001;</li>
 *   <li>an expression (no original table) gets its name as original name, a number loses BINARY
 *       ({@code 1 + 1} 0x81 becomes 0x01), a string's decimals 39 become 0, NULL's type NULL becomes CHAR;</li>
 *   <li>a string expression longer than 512 characters, and any BLOB expression, becomes the smallest of TINYBLOB,
 *       BLOB, MEDIUMBLOB and LONGBLOB that holds its bytes, whose length the server sends as those bytes, times the
 *       result character set's most bytes a character when it converts results ({@code GROUP_CONCAT(...)}, 1048576
 *       characters, becomes a MEDIUMTEXT: 67108860 under {@code character_set_results = utf8mb4}, 16777215 under
 *       NULL, as MySQL Connector/J sets it).</li>
 * </ul>
 */
final class CursorColumns {
    /** MariaDB's CONVERT_IF_BIGGER_TO_BLOB: a longer string item is a BLOB field in a temporary table. */
    private static final long BLOB_ABOVE_CHARS = 512;
    private static final int TABLE_FLAGS = 0x0002 | 0x0004 | 0x0008 | 0x0200 | 0x0400 | 0x2000 | 0x4000;
    private static final int FLAG_BLOB = 0x10;
    private static final int NOT_FIXED_DEC = 39;
    private static final long[] BLOB_BYTES = {255, 65_535, 16_777_215};
    private static final long LONG_BLOB = 4_294_967_295L;

    private CursorColumns() {
    }

    /**
     * @param converted whether the session converts results to its character_set_results (not NULL or binary): a
     *                  length then counts that character set's bytes a character, as MariaDB sends it
     */
    static List<ColumnDefinition> of(List<ColumnDefinition> columns, boolean converted) {
        List<ColumnDefinition> materialized = new ArrayList<>(columns.size());
        for (ColumnDefinition column : columns) {
            materialized.add(of(column, converted));
        }
        return materialized;
    }

    static ColumnDefinition of(ColumnDefinition column, boolean converted) {
        int flags = column.flags() & ~TABLE_FLAGS;
        if (!column.orgTable().isEmpty()) {
            return withFlags(column, flags);
        }
        int type = column.type();
        long length = column.length();
        int decimals = column.decimals();
        if (numeric(type)) {
            flags &= ~ColumnDefinition.FLAG_BINARY;
        } else if (type == ColumnDefinition.TYPE_NULL) {
            type = ColumnDefinition.TYPE_STRING;
        } else if (string(type)) {
            decimals = decimals == NOT_FIXED_DEC ? 0 : decimals;
            long perChar = bytesPerChar(column.charset());
            // Converted, a BLOB's length is its bytes times the result character set's most bytes a character.
            long sentPerChar = converted ? perChar : 1;
            if (blob(type) || length / perChar > BLOB_ABOVE_CHARS) {
                long bytes = blob(type) ? length / sentPerChar : length;
                type = ColumnDefinition.TYPE_BLOB;
                flags |= FLAG_BLOB;
                length = Math.min(blobBytes(bytes) * sentPerChar, LONG_BLOB);
            }
        }
        return new ColumnDefinition(column.catalog(), column.schema(), column.table(), column.orgTable(), column.name(),
                column.name(), column.charset(), length, type, flags, decimals);
    }

    private static ColumnDefinition withFlags(ColumnDefinition column, int flags) {
        return new ColumnDefinition(column.catalog(), column.schema(), column.table(), column.orgTable(), column.name(),
                column.orgName(), column.charset(), column.length(), column.type(), flags, column.decimals());
    }

    /** The most bytes of the smallest of TINYBLOB, BLOB, MEDIUMBLOB and LONGBLOB that holds {@code bytes}. */
    private static long blobBytes(long bytes) {
        for (long size : BLOB_BYTES) {
            if (bytes <= size) {
                return size;
            }
        }
        return LONG_BLOB;
    }

    private static boolean numeric(int type) {
        return switch (type) {
            case ColumnDefinition.TYPE_DECIMAL, ColumnDefinition.TYPE_TINY, ColumnDefinition.TYPE_SHORT, ColumnDefinition.TYPE_LONG,
                 ColumnDefinition.TYPE_FLOAT, ColumnDefinition.TYPE_DOUBLE, ColumnDefinition.TYPE_LONGLONG, ColumnDefinition.TYPE_INT24,
                 ColumnDefinition.TYPE_NEWDECIMAL -> true;
            default -> false;
        };
    }

    private static boolean string(int type) {
        return type == ColumnDefinition.TYPE_VARCHAR || type == ColumnDefinition.TYPE_VAR_STRING || type == ColumnDefinition.TYPE_STRING
                || blob(type);
    }

    private static boolean blob(int type) {
        return type >= ColumnDefinition.TYPE_TINY_BLOB && type <= ColumnDefinition.TYPE_BLOB;
    }

    /** The most bytes a character of the collation's character set takes (what a definition's length counts in). */
    static long bytesPerChar(int collationId) {
        if (!io.shardgate.proxy.protocol.CollationCharsets.isUtf8(collationId)) {
            return 1;
        }
        int base = collationId >= 1024 && collationId < 2048 ? collationId - 1024 : collationId;
        boolean mb3 = base == 33 || base == 76 || base == 83 || base >= 192 && base <= 215 || base == 223
                || base >= 576 && base <= 578 || base >= 2048 && base <= 2247;
        return mb3 ? 3 : 4;
    }
}
