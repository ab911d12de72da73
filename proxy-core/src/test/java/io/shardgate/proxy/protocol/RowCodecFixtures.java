package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

/** Helpers of the row codec tests. */
final class RowCodecFixtures {
    static final ColumnDefinition INT = column(ColumnDefinition.TYPE_LONG, 63, 11, 0, 0);
    static final ColumnDefinition TINY = column(ColumnDefinition.TYPE_TINY, 63, 4, 0, 0);
    static final ColumnDefinition DOUBLE = column(ColumnDefinition.TYPE_DOUBLE, 63, 22, 0, 31);
    static final ColumnDefinition FLOAT = column(ColumnDefinition.TYPE_FLOAT, 63, 12, 0, 31);
    static final ColumnDefinition DECIMAL_10_2 = column(ColumnDefinition.TYPE_NEWDECIMAL, 63, 12, 0, 2);
    static final ColumnDefinition BIGINT_UNSIGNED = column(ColumnDefinition.TYPE_LONGLONG, 63, 20, ColumnDefinition.FLAG_UNSIGNED, 0);
    static final ColumnDefinition DATETIME_3 = column(ColumnDefinition.TYPE_DATETIME, 63, 23, 0, 3);
    static final ColumnDefinition TIME_3 = column(ColumnDefinition.TYPE_TIME, 63, 14, 0, 3);
    static final ColumnDefinition DATE = column(ColumnDefinition.TYPE_DATE, 63, 10, 0, 0);
    static final ColumnDefinition UTF8_VARCHAR = column(ColumnDefinition.TYPE_VAR_STRING, 45, 40, 0, 0);
    static final ColumnDefinition BLOB = column(ColumnDefinition.TYPE_BLOB, 63, 65535, ColumnDefinition.FLAG_BINARY, 0);
    static final ColumnDefinition TEXT = column(ColumnDefinition.TYPE_BLOB, 45, 65535, 0, 0);
    static final ColumnDefinition BIT_10 = column(ColumnDefinition.TYPE_BIT, 63, 10, ColumnDefinition.FLAG_UNSIGNED, 0);
    private RowCodecFixtures() {
    }

    /** A computed column named {@code c}. */
    static ColumnDefinition column(int type, int charset, long length, int flags, int decimals) {
        return ColumnDefinition.computed("c", type, charset, length, flags, decimals);
    }

    /** The hex dump of an encoded payload, which is then released. */
    static String hexAndRelease(ByteBuf encoded) {
        try {
            return ByteBufUtil.hexDump(encoded);
        } finally {
            encoded.release();
        }
    }
}
