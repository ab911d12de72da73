package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;

/**
 * Reads and rewrites the statement id and parameter types of the prepared-statement commands
 * (COM_STMT_EXECUTE, FETCH, SEND_LONG_DATA, RESET, CLOSE, MariaDB's BULK_EXECUTE) and of the
 * COM_STMT_PREPARE OK packet: all carry the id as int&lt;4&gt; right after their first byte.
 *
 * <p>COM_STMT_EXECUTE: int&lt;1&gt; 0x17, int&lt;4&gt; id, int&lt;1&gt; flags, int&lt;4&gt; iteration count,
 * then with parameters: the NULL bitmap ((n + 7) / 8 bytes), int&lt;1&gt; new-params-bound flag, and
 * when it is 1, n two-byte types, then the values.
 */
public final class StatementPackets {
    public static final int CURSOR_TYPE_READ_ONLY = 1;

    private StatementPackets() {
    }

    public static boolean hasStatementId(ByteBuf payload) {
        return payload.readableBytes() >= 5;
    }

    public static int statementId(ByteBuf payload) {
        Wire.need(payload, 5, "statement id");
        return payload.getIntLE(payload.readerIndex() + 1);
    }

    /** Overwrites the statement id in place. */
    public static void statementId(ByteBuf payload, int id) {
        payload.setIntLE(payload.readerIndex() + 1, id);
    }

    /** The flags byte of a COM_STMT_EXECUTE; 0 when the packet is too short to have it. */
    public static int executeFlags(ByteBuf payload) {
        return payload.readableBytes() > 5 ? payload.getUnsignedByte(payload.readerIndex() + 5) : 0;
    }

    private static int boundFlagIndex(ByteBuf payload, int parameters) {
        return payload.readerIndex() + 10 + (parameters + 7) / 8;
    }

    /**
     * The parameter types a COM_STMT_EXECUTE sends (new-params-bound flag 1), or null when it sends
     * none or is too short to tell (the server will judge it).
     */
    public static byte[] sentTypes(ByteBuf payload, int parameters) {
        if (parameters == 0) {
            return null;
        }
        int flag = boundFlagIndex(payload, parameters);
        int end = payload.readerIndex() + payload.readableBytes();
        if (flag >= end || payload.getByte(flag) != 1 || flag + 1 + 2 * parameters > end) {
            return null;
        }
        byte[] types = new byte[2 * parameters];
        payload.getBytes(flag + 1, types);
        return types;
    }

    /** Whether a COM_STMT_EXECUTE is complete up to its new-params-bound flag and leaves it 0. */
    public static boolean omitsTypes(ByteBuf payload, int parameters) {
        if (parameters == 0) {
            return false;
        }
        int flag = boundFlagIndex(payload, parameters);
        return flag < payload.readerIndex() + payload.readableBytes() && payload.getByte(flag) == 0;
    }

    /**
     * A COM_STMT_EXECUTE that sends {@code types}, built from one that sent none: for a backend
     * statement that has not seen this client's types. Releases {@code payload}.
     */
    public static ByteBuf withTypes(ByteBuf payload, int parameters, byte[] types, ByteBufAllocator alloc) {
        int flag = boundFlagIndex(payload, parameters);
        int start = payload.readerIndex();
        int end = start + payload.readableBytes();
        ByteBuf head = alloc.buffer(flag - start + 1 + types.length);
        head.writeBytes(payload, start, flag - start).writeByte(1).writeBytes(types);
        CompositeByteBuf out = alloc.compositeBuffer(2);
        out.addComponent(true, head);
        out.addComponent(true, payload.retainedSlice(flag + 1, end - flag - 1));
        payload.release();
        return out;
    }

    /** The parameter count in a COM_STMT_PREPARE OK packet. */
    public static int prepareOkParameters(ByteBuf payload) {
        Wire.need(payload, 12, "COM_STMT_PREPARE OK");
        return payload.getUnsignedShortLE(payload.readerIndex() + 7);
    }
}
