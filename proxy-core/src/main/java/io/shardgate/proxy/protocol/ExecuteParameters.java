package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.shardgate.router.value.SqlValue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The parameter values of a client's COM_STMT_EXECUTE (https://mariadb.com/kb/en/com_stmt_execute/):
 * after the command byte, statement id, flags and iteration count come the NULL bitmap
 * ((n + 7) / 8 bytes), the new-params-bound flag, when it is 1 the n two-byte types (field type,
 * then 0x80 for UNSIGNED), and the values of the parameters that are neither NULL nor sent before
 * with COM_STMT_SEND_LONG_DATA. Long data wins over the NULL bit, as in the server.
 *
 * <p>Values ({@link SqlValue}): integers INTEGER (BIG_INTEGER for an unsigned BIGINT above
 * Long.MAX_VALUE), FLOAT and DOUBLE FLOAT, DECIMAL DECIMAL, character strings TEXT read in the client's
 * character set (losslessly: written back in it they are the client's bytes), blobs, GEOMETRY and BIT
 * BYTES, DATE as TEXT 'YYYY-MM-DD', DATETIME and TIMESTAMP as TEXT 'YYYY-MM-DD HH:MM:SS' and TIME as
 * TEXT '[-]HH:MM:SS' (days folded into the hours), both with '.ffffff' when the microseconds are not
 * zero: the literals MariaDB's general log shows for the same packet. Long data is BYTES for blob
 * types and TEXT otherwise.
 *
 * @param values the values in parameter order, {@link SqlValue#NULL} for SQL NULL
 * @param types  the two-byte types used: those the packet sent, or the remembered ones it relied on
 */
public record ExecuteParameters(List<SqlValue> values, byte[] types) {
    private static final int HEAD_LENGTH = 10;
    private static final int UNSIGNED = 0x80;

    public ExecuteParameters {
        values = List.copyOf(values);
        types = types.clone();
    }

    /**
     * Reads the values of {@code payload} without moving its reader index.
     *
     * @param parameterCount  the statement's parameter count (from its COM_STMT_PREPARE OK)
     * @param rememberedTypes the types of the last execute that sent them, or null: used when this one does not
     * @param longData        COM_STMT_SEND_LONG_DATA bytes by parameter index, sent since the last execute
     * @param charset         the client's character set ({@code character_set_client}), which character strings are
     *                          read in: losslessly, so that writing them back in it gives the client's bytes
     */
    public static ExecuteParameters decode(ByteBuf payload, int parameterCount, byte[] rememberedTypes,
                                           Map<Integer, byte[]> longData, ClientCharset charset) {
        requireNonNull(longData, "longData is null");
        requireNonNull(charset, "charset is null");
        Wire.need(payload, HEAD_LENGTH, "COM_STMT_EXECUTE");
        if (parameterCount == 0) {
            return new ExecuteParameters(List.of(), new byte[0]);
        }
        byte[] types = StatementPackets.sentTypes(payload, parameterCount);
        boolean sent = types != null;
        if (!sent) {
            if (!StatementPackets.omitsTypes(payload, parameterCount)) {
                throw new MalformedPacketException("COM_STMT_EXECUTE of " + parameterCount + " parameters: "
                        + payload.readableBytes() + " bytes (expected: the NULL bitmap, new-params-bound flag and types)");
            }
            if (rememberedTypes == null || rememberedTypes.length != 2 * parameterCount) {
                throw new MalformedPacketException("COM_STMT_EXECUTE sends no parameter types (expected: types, as no earlier execute of the statement sent "
                        + parameterCount + ")");
            }
            types = rememberedTypes;
        }
        ByteBuf in = payload.duplicate().skipBytes(HEAD_LENGTH);
        int bitmap = in.readerIndex();
        in.skipBytes((parameterCount + 7) / 8 + 1 + (sent ? types.length : 0));
        SqlValue[] values = new SqlValue[parameterCount];
        Arrays.fill(values, SqlValue.NULL);
        for (int i = 0; i < parameterCount; i++) {
            int type = types[2 * i] & 0xFF;
            byte[] data = longData.get(i);
            if (data != null) {
                values[i] = isBytes(type) ? SqlValue.ofBytes(data) : text(data, charset);
            } else if ((payload.getByte(bitmap + i / 8) & 1 << (i % 8)) == 0) {
                values[i] = value(in, i, type, (types[2 * i + 1] & UNSIGNED) != 0, charset);
            }
        }
        return new ExecuteParameters(Arrays.asList(values), types);
    }

    /** The two-byte types used (a copy). */
    @Override
    public byte[] types() {
        return types.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ExecuteParameters other && values.equals(other.values) && Arrays.equals(types, other.types);
    }

    @Override
    public int hashCode() {
        return 31 * values.hashCode() + Arrays.hashCode(types);
    }

    @Override
    public String toString() {
        return "ExecuteParameters[values=" + values + ", types=" + Arrays.toString(types) + "]";
    }

    private static SqlValue value(ByteBuf in, int index, int type, boolean unsigned, ClientCharset charset) {
        String what = "parameter " + index + " of type 0x" + Integer.toHexString(type);
        return switch (type) {
            case ColumnDefinition.TYPE_NULL -> SqlValue.NULL;
            case ColumnDefinition.TYPE_TINY -> {
                Wire.need(in, 1, what);
                yield SqlValue.ofLong(unsigned ? in.readUnsignedByte() : in.readByte());
            }
            case ColumnDefinition.TYPE_SHORT, ColumnDefinition.TYPE_YEAR -> {
                Wire.need(in, 2, what);
                yield SqlValue.ofLong(unsigned ? in.readUnsignedShortLE() : in.readShortLE());
            }
            case ColumnDefinition.TYPE_LONG, ColumnDefinition.TYPE_INT24 -> {
                Wire.need(in, 4, what);
                yield SqlValue.ofLong(unsigned ? in.readUnsignedIntLE() : in.readIntLE());
            }
            case ColumnDefinition.TYPE_LONGLONG -> {
                Wire.need(in, 8, what);
                long bits = in.readLongLE();
                yield unsigned && bits < 0 ? SqlValue.ofInteger(new BigInteger(Long.toUnsignedString(bits))) : SqlValue.ofLong(bits);
            }
            case ColumnDefinition.TYPE_FLOAT -> {
                Wire.need(in, 4, what);
                yield SqlValue.ofDouble(in.readFloatLE());
            }
            case ColumnDefinition.TYPE_DOUBLE -> {
                Wire.need(in, 8, what);
                yield SqlValue.ofDouble(in.readDoubleLE());
            }
            case ColumnDefinition.TYPE_DECIMAL, ColumnDefinition.TYPE_NEWDECIMAL -> SqlValue.ofDecimal(decimal(Wire.readLenencString(in, StandardCharsets.ISO_8859_1), what));
            case ColumnDefinition.TYPE_DATE, ColumnDefinition.TYPE_NEWDATE -> SqlValue.ofText(MySqlTime.readDateTime(in).dateText());
            case ColumnDefinition.TYPE_DATETIME, ColumnDefinition.TYPE_DATETIME2, ColumnDefinition.TYPE_TIMESTAMP,
                    ColumnDefinition.TYPE_TIMESTAMP2 -> {
                MySqlTime time = MySqlTime.readDateTime(in);
                yield SqlValue.ofText(time.dateTimeText(time.micros() != 0 ? 6 : 0));
            }
            case ColumnDefinition.TYPE_TIME, ColumnDefinition.TYPE_TIME2 -> {
                MySqlTime time = MySqlTime.readTime(in);
                yield SqlValue.ofText(time.timeText(time.micros() != 0 ? 6 : 0));
            }
            case ColumnDefinition.TYPE_VARCHAR, ColumnDefinition.TYPE_VAR_STRING, ColumnDefinition.TYPE_STRING,
                    ColumnDefinition.TYPE_ENUM, ColumnDefinition.TYPE_SET, ColumnDefinition.TYPE_JSON -> text(Wire.readLenencBytes(in), charset);
            default -> {
                if (!isBytes(type)) {
                    throw new MalformedPacketException(what + " (expected: a field type)");
                }
                yield SqlValue.ofBytes(Wire.readLenencBytes(in));
            }
        };
    }

    /** A string parameter's text: exact, so that writing it back in {@code charset} gives the client's bytes again. */
    private static SqlValue text(byte[] bytes, ClientCharset charset) {
        String text = charset.decode(bytes);
        if (!charset.exact(bytes, text)) {
            throw ClientCharset.UnmappableTextException.invalid(charset);
        }
        return SqlValue.ofText(text);
    }

    private static boolean isBytes(int type) {
        return switch (type) {
            case ColumnDefinition.TYPE_TINY_BLOB, ColumnDefinition.TYPE_MEDIUM_BLOB, ColumnDefinition.TYPE_LONG_BLOB,
                    ColumnDefinition.TYPE_BLOB, ColumnDefinition.TYPE_GEOMETRY, ColumnDefinition.TYPE_BIT -> true;
            default -> false;
        };
    }

    private static BigDecimal decimal(String text, String what) {
        try {
            return new BigDecimal(text);
        } catch (NumberFormatException e) {
            throw new MalformedPacketException(what + ": '" + text + "' (expected: a decimal number)");
        }
    }
}
