package io.shardgate.proxy.backend;

import io.netty.buffer.ByteBuf;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MalformedPacketException;
import io.shardgate.proxy.protocol.PacketDecoder;
import io.shardgate.proxy.protocol.ServerStatus;
import io.shardgate.proxy.protocol.Wire;

/**
 * Follows a server's response to one command, packet by packet, and says when it is complete,
 * without keeping any packet. It knows the shapes of the protocol docs' "COM_QUERY Response",
 * "COM_STMT_PREPARE Response", "Binary Protocol Resultset", cursor fetches and multi-results
 * (SERVER_MORE_RESULTS_EXISTS), with and without CLIENT_DEPRECATE_EOF.
 *
 * <p>Not thread-safe: one tracker follows one backend connection on its event loop.
 */
public final class ResponseTracker {
    private enum State { FIRST, PREPARE_PARAMS, PREPARE_PARAMS_EOF, PREPARE_COLUMNS, PREPARE_COLUMNS_EOF,
        COLUMNS, COLUMNS_EOF, ROWS, FIELD_LIST, SINGLE, DONE }

    private final boolean deprecateEof;
    private State state = State.DONE;
    private Command command = Command.UNKNOWN;
    private long remaining;
    private long pendingColumns;
    private int lastStatus = ServerStatus.AUTOCOMMIT;
    private int warnings;
    private long okInsertId;
    private long okAffectedRows;
    private boolean okTrailer;
    private boolean error;
    private boolean localInfile;
    private boolean ok;
    private long rows;

    public ResponseTracker(long capabilities) {
        this.deprecateEof = Capabilities.has(capabilities, Capabilities.CLIENT_DEPRECATE_EOF);
    }

    /** Starts following the response to {@code command}. */
    public void start(Command command) {
        this.command = command;
        // lastStatus carries over: a response that ends in ERR reports no status, and the server's
        // transaction state is still what the last OK or EOF said.
        this.error = false;
        this.warnings = 0;
        this.localInfile = false;
        this.rows = 0;
        this.state = switch (command) {
            case STMT_FETCH -> State.ROWS;
            case FIELD_LIST -> State.FIELD_LIST;
            case STATISTICS -> State.SINGLE;
            default -> State.FIRST;
        };
    }

    public boolean isDone() {
        return state == State.DONE;
    }

    /** Status flags of the last OK, EOF or terminator seen, in this response or an earlier one. */
    public int lastStatus() {
        return lastStatus;
    }

    /** The warning count of the response's last OK or EOF (0 when none was seen). */
    public int warnings() {
        return warnings;
    }

    /** The rows of the response's result sets so far (a row packet split over 16 MiB counts once per piece). */
    public long rows() {
        return rows;
    }

    /** The affected rows of the OK packet {@link #lastWasOk()} reported. */
    public long okAffectedRows() {
        return okAffectedRows;
    }

    /** The insert id of the OK packet {@link #lastWasOk()} reported. */
    public long okInsertId() {
        return okInsertId;
    }

    /** Whether the OK packet {@link #lastWasOk()} reported carries info text or session state after its warnings. */
    public boolean okHasTrailer() {
        return okTrailer;
    }

    /** True when the response ended with an ERR packet. */
    public boolean endedWithError() {
        return error;
    }

    /**
     * True when the packet just accepted was the server's request for a local file (LOAD DATA
     * LOCAL): the client's file must follow.
     */
    public boolean wantsLocalInfile() {
        return localInfile;
    }

    /**
     * True when the packet just accepted was an OK packet: a command's OK, or with
     * CLIENT_DEPRECATE_EOF the OK that ends a result set. Only these carry session-state changes.
     */
    public boolean lastWasOk() {
        return ok;
    }

    /** Feeds the next packet's payload (not consumed); returns true when the response is complete. */
    public boolean accept(ByteBuf payload) {
        localInfile = false;
        ok = false;
        okInsertId = 0;
        okTrailer = false;
        int length = payload.readableBytes();
        int header = length == 0 ? -1 : payload.getUnsignedByte(payload.readerIndex());
        switch (state) {
            case FIRST -> first(payload, header);
            case PREPARE_PARAMS -> {
                if (--remaining == 0) {
                    state = deprecateEof ? afterParams() : State.PREPARE_PARAMS_EOF;
                }
            }
            case PREPARE_PARAMS_EOF -> state = afterParams();
            case PREPARE_COLUMNS -> {
                if (--remaining == 0) {
                    state = deprecateEof ? State.DONE : State.PREPARE_COLUMNS_EOF;
                }
            }
            case PREPARE_COLUMNS_EOF -> state = State.DONE;
            case COLUMNS -> {
                if (header == 0xFF) {
                    error = true;
                    state = State.DONE;
                } else if (--remaining == 0) {
                    state = deprecateEof ? State.ROWS : State.COLUMNS_EOF;
                }
            }
            case COLUMNS_EOF -> {
                terminator(payload);
                // A cursor was opened: rows come later through COM_STMT_FETCH.
                if ((lastStatus & ServerStatus.CURSOR_EXISTS) != 0) {
                    state = State.DONE;
                } else {
                    state = State.ROWS;
                }
            }
            case ROWS -> {
                if (header == 0xFF) {
                    error = true;
                    state = State.DONE;
                } else if (header == 0xFE && length < PacketDecoder.MAX_WIRE_PAYLOAD && (deprecateEof || length < 9)) {
                    terminator(payload);
                    ok = deprecateEof;
                    boolean more = (lastStatus & ServerStatus.MORE_RESULTS_EXISTS) != 0 && command != Command.STMT_FETCH;
                    state = more ? State.FIRST : State.DONE;
                } else {
                    rows++;
                }
            }
            case FIELD_LIST -> {
                if (header == 0xFF) {
                    error = true;
                    state = State.DONE;
                } else if (header == 0xFE && length < PacketDecoder.MAX_WIRE_PAYLOAD && (deprecateEof || length < 9)) {
                    terminator(payload);
                    state = State.DONE;
                }
            }
            case SINGLE -> state = State.DONE;
            case DONE -> throw new MalformedPacketException("backend sent a packet after its response was complete");
            default -> throw new IllegalStateException("state " + state);
        }
        return state == State.DONE;
    }

    private State afterParams() {
        return pendingColumns > 0 ? columnsOf(pendingColumns) : State.DONE;
    }

    private State columnsOf(long count) {
        remaining = count;
        return State.PREPARE_COLUMNS;
    }

    private void first(ByteBuf payload, int header) {
        switch (header) {
            case 0x00 -> {
                if (command == Command.STMT_PREPARE) {
                    prepareOk(payload);
                    return;
                }
                okHead(payload);
                ok = true;
                state = (lastStatus & ServerStatus.MORE_RESULTS_EXISTS) != 0 ? State.FIRST : State.DONE;
            }
            case 0xFF -> {
                error = true;
                state = State.DONE;
            }
            case 0xFE -> {
                // An EOF where an OK is expected (COM_SET_OPTION, COM_DEBUG on older servers).
                terminator(payload);
                state = State.DONE;
            }
            case 0xFB -> {
                localInfile = true;
                // The client now sends the file and an empty packet; the server then answers OK or ERR.
                state = State.FIRST;
            }
            default -> {
                int mark = payload.readerIndex();
                long columns;
                try {
                    columns = Wire.readLenencInt(payload);
                } finally {
                    payload.readerIndex(mark);
                }
                if (columns <= 0) {
                    throw new MalformedPacketException("result set column count: " + columns + " (expected: > 0)");
                }
                remaining = columns;
                state = State.COLUMNS;
            }
        }
    }

    private void prepareOk(ByteBuf payload) {
        Wire.need(payload, 12, "COM_STMT_PREPARE OK");
        int columns = payload.getUnsignedShortLE(payload.readerIndex() + 5);
        int params = payload.getUnsignedShortLE(payload.readerIndex() + 7);
        pendingColumns = columns;
        if (params > 0) {
            remaining = params;
            state = State.PREPARE_PARAMS;
        } else {
            state = afterParams();
        }
    }

    /**
     * An OK packet (its header byte skipped here): affected rows, insert id, status, warnings, then
     * info or session state. Read in place (no duplicate per packet); the payload's reader index is
     * left where it was.
     */
    private void okHead(ByteBuf payload) {
        int mark = payload.readerIndex();
        try {
            payload.skipBytes(1);
            okAffectedRows = Wire.readLenencInt(payload);
            okInsertId = Wire.readLenencInt(payload);
            lastStatus = payload.readableBytes() >= 2 ? payload.readUnsignedShortLE() : 0;
            warnings = payload.readableBytes() >= 2 ? payload.readUnsignedShortLE() : 0;
            okTrailer = payload.isReadable();
        } finally {
            payload.readerIndex(mark);
        }
    }

    private void terminator(ByteBuf payload) {
        int start = payload.readerIndex() + 1;
        int after = payload.readableBytes() - 1;
        if (payload.readableBytes() < 9 && !deprecateEof) {
            // EOF_Packet: warnings, then status.
            warnings = after >= 2 ? payload.getUnsignedShortLE(start) : 0;
            lastStatus = after >= 4 ? payload.getUnsignedShortLE(start + 2) : 0;
            return;
        }
        if (payload.readableBytes() < 7 && after >= 4) {
            warnings = payload.getUnsignedShortLE(start);
            lastStatus = payload.getUnsignedShortLE(start + 2);
            return;
        }
        okHead(payload);
    }
}
