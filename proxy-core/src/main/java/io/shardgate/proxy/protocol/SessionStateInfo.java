package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The session-state part of an OK packet (protocol docs: "Session State Information"), sent when
 * the status has SERVER_SESSION_STATE_CHANGED and the client negotiated CLIENT_SESSION_TRACK.
 * Only the trackers Shardgate acts on are decoded; others are skipped by their length.
 *
 * @param variables system variables that changed, name to value, in the order the server sent them
 * @param schema the new default schema, or null when it did not change
 * @param stateChanged the server's catch-all flag: something else in the session changed
 *        (a user variable, a temporary table, an SQL-level prepared statement)
 */
public record SessionStateInfo(List<Variable> variables, String schema, boolean stateChanged) {
    public static final SessionStateInfo NONE = new SessionStateInfo(List.of(), null, false);

    private static final int SYSTEM_VARIABLES = 0;
    private static final int SCHEMA = 1;
    private static final int STATE_CHANGE = 2;

    public record Variable(String name, String value) {
    }

    /**
     * Reads the session state of an OK packet (header 0x00, or 0xFE ending a result set), given
     * that the connection negotiated CLIENT_SESSION_TRACK. Returns {@link #NONE} when it carries none.
     */
    public static SessionStateInfo ofOk(ByteBuf payload) {
        ByteBuf buf = payload.duplicate();
        buf.skipBytes(1);
        Wire.readLenencInt(buf);
        Wire.readLenencInt(buf);
        if (buf.readableBytes() < 4) {
            return NONE;
        }
        int status = buf.readUnsignedShortLE();
        buf.skipBytes(2);
        if ((status & ServerStatus.SESSION_STATE_CHANGED) == 0 || !buf.isReadable()) {
            return NONE;
        }
        Wire.readLenencBytes(buf); // info
        if (!buf.isReadable()) {
            return NONE;
        }
        long total = Wire.readLenencInt(buf);
        Wire.need(buf, (int) total, "session state information");
        ByteBuf state = buf.readSlice((int) total);
        List<Variable> variables = new ArrayList<>(2);
        String schema = null;
        boolean changed = false;
        while (state.isReadable()) {
            int type = state.readUnsignedByte();
            long length = Wire.readLenencInt(state);
            Wire.need(state, (int) length, "session state entry");
            ByteBuf entry = state.readSlice((int) length);
            switch (type) {
                case SYSTEM_VARIABLES -> variables.add(new Variable(
                        Wire.readLenencString(entry, StandardCharsets.UTF_8), Wire.readLenencString(entry, StandardCharsets.UTF_8)));
                case SCHEMA -> schema = Wire.readLenencString(entry, StandardCharsets.UTF_8);
                case STATE_CHANGE -> changed = entry.isReadable() && entry.getByte(entry.readerIndex()) == '1';
                default -> {
                    // GTIDs, transaction characteristics and state: not used.
                }
            }
        }
        return new SessionStateInfo(List.copyOf(variables), schema, changed);
    }

    /**
     * The same OK packet without its session-state part, for a client that did not negotiate
     * CLIENT_SESSION_TRACK. The info text keeps its length prefix: MariaDB and MySQL servers write
     * it that way to every client (net_store_data), and drivers read it so, whatever the docs'
     * string&lt;EOF&gt; suggests.
     */
    public static ByteBuf withoutSessionState(ByteBuf payload, io.netty.buffer.ByteBufAllocator alloc) {
        ByteBuf buf = payload.duplicate();
        int start = buf.readerIndex();
        buf.skipBytes(1);
        Wire.readLenencInt(buf);
        Wire.readLenencInt(buf);
        Wire.need(buf, 4, "OK packet status");
        int statusAt = buf.readerIndex();
        int status = buf.getUnsignedShortLE(statusAt);
        buf.skipBytes(4);
        byte[] info = buf.isReadable() ? Wire.readLenencBytes(buf) : new byte[0];
        ByteBuf out = alloc.buffer((statusAt - start) + 4 + 9 + info.length);
        out.writeBytes(payload, start, statusAt - start);
        out.writeShortLE(status & ~ServerStatus.SESSION_STATE_CHANGED);
        out.writeBytes(payload, statusAt + 2, 2);
        if (info.length > 0) {
            Wire.writeLenencBytes(out, info);
        }
        return out;
    }
}
