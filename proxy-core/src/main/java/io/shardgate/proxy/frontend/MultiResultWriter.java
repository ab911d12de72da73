package io.shardgate.proxy.frontend;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.ServerStatus;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The answer to a multi-statement that Shardgate runs statement by statement (a sharded deployment):
 * each statement's response goes out as the server would send one result of a multi-result response.
 * In the channel's pipeline for the duration of the batch, it numbers every packet on from the
 * previous statement's last, sets {@code SERVER_MORE_RESULTS_EXISTS} in the final OK or EOF of every
 * statement but the last, and stops the batch at the first ERR, as MariaDB does.
 *
 * <p>It reads the responses as they are written: encoded frames (a buffer may hold several, a large
 * packet's header and payload come as separate writes) or, where no encoder precedes it (tests),
 * packets. A response is an OK, an ERR, or a result set (column count, definitions, an EOF unless
 * the client deprecated it, rows, and a final EOF or OK whose own MORE_RESULTS flag, from a
 * procedure, says another result of the same statement follows).
 */
final class MultiResultWriter extends ChannelOutboundHandlerAdapter {
    static final String NAME = "multi-results";

    private enum State { START, COLUMNS, COLUMNS_EOF, ROWS }

    private final Set<MySqlPacket> statements = Collections.newSetFromMap(new IdentityHashMap<>());
    private final boolean deprecateEof;
    private int unanswered;
    private boolean failed;
    private State state = State.START;
    private long columns;
    private int sequence = 1;
    /** Bytes of the current frame's payload still to come in later writes. */
    private int payloadLeft;
    /** The next frame continues a packet of 16 MiB or more. */
    private boolean continuation;

    /** A batch of {@code statements} (the packets that will run them, in order) for a client with or without CLIENT_DEPRECATE_EOF. */
    MultiResultWriter(List<MySqlPacket> statements, boolean deprecateEof) {
        this.statements.addAll(statements);
        this.unanswered = statements.size();
        this.deprecateEof = deprecateEof;
    }

    /** Whether {@code packet} runs a statement of this batch; it is then no longer the batch's. */
    boolean take(MySqlPacket packet) {
        return statements.remove(packet);
    }

    /** Whether a statement of the batch failed: the statements after it do not run. */
    boolean failed() {
        return failed;
    }

    /** Whether every statement of the batch has run or been skipped. */
    boolean done() {
        return statements.isEmpty();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof MySqlPacket packet) {
            ByteBuf payload = packet.payload();
            boolean last = frame(payload, payload.readerIndex(), payload.readableBytes(), payload.readableBytes());
            MySqlPacket renumbered = new MySqlPacket(sequence++ & 0xFF, payload);
            ctx.write(renumbered, promise);
            finishIf(ctx, last);
        } else if (msg instanceof ByteBuf buf) {
            boolean last = frames(buf);
            ctx.write(buf, promise);
            finishIf(ctx, last);
        } else {
            ctx.write(msg, promise);
        }
    }

    private void finishIf(ChannelHandlerContext ctx, boolean last) {
        if (last && !ctx.isRemoved()) {
            ctx.pipeline().remove(this);
        }
    }

    /** Reads the frames in {@code buf}, renumbering them; true when the batch's answer ended with them. */
    private boolean frames(ByteBuf buf) {
        int at = buf.readerIndex();
        int end = buf.writerIndex();
        boolean last = false;
        while (at < end) {
            if (payloadLeft > 0) {
                int skip = Math.min(payloadLeft, end - at);
                payloadLeft -= skip;
                at += skip;
                continue;
            }
            if (end - at < 4) {
                return last; // not a frame header: leave it alone
            }
            int length = buf.getMediumLE(at);
            buf.setByte(at + 3, sequence++ & 0xFF);
            int here = Math.min(length, end - at - 4);
            last |= frame(buf, at + 4, here, length);
            payloadLeft = length - here;
            at += 4 + here;
        }
        return last;
    }

    /**
     * One frame of {@code length} payload bytes, of which {@code present} start at {@code index} (a
     * large frame's payload may come in a later write). True when it ends the batch's answer.
     */
    private boolean frame(ByteBuf buf, int index, int present, int length) {
        boolean continues = continuation;
        continuation = length == 0xFF_FFFF;
        if (continues) {
            return false;
        }
        int header = present > 0 ? buf.getUnsignedByte(index) : -1;
        switch (state) {
            case START -> {
                if (header == 0xFF) {
                    return statementFailed();
                }
                if (header == 0x00 && present == length) {
                    return end(buf, index, present, false);
                }
                columns = present == length ? lenenc(buf, index) : 1;
                state = State.COLUMNS;
            }
            case COLUMNS -> {
                if (--columns == 0) {
                    state = deprecateEof ? State.ROWS : State.COLUMNS_EOF;
                }
            }
            case COLUMNS_EOF -> state = State.ROWS;
            case ROWS -> {
                if (header == 0xFF && present == length) {
                    return statementFailed();
                }
                if (header == 0xFE && present == length && length < (deprecateEof ? 0xFF_FFFF : 9)) {
                    return end(buf, index, present, !deprecateEof);
                }
            }
            default -> throw new IllegalStateException("state " + state);
        }
        return false;
    }

    /** The final OK or EOF of a result: the statement's answer ends unless the server said another result follows. */
    private boolean end(ByteBuf buf, int index, int present, boolean eof) {
        state = State.START;
        int status = eof ? index + 3 : okStatus(buf, index);
        if (status + 2 > index + present) {
            return endOfStatement(); // a bare OK or EOF without status: nothing to flag
        }
        int flags = buf.getUnsignedShortLE(status);
        if ((flags & ServerStatus.MORE_RESULTS_EXISTS) != 0) {
            return false; // a procedure's result: more of the same statement follows
        }
        if (unanswered > 1) {
            buf.setShortLE(status, flags | ServerStatus.MORE_RESULTS_EXISTS);
        }
        return endOfStatement();
    }

    private boolean endOfStatement() {
        unanswered--;
        return unanswered <= 0;
    }

    private boolean statementFailed() {
        state = State.START;
        failed = true;
        return true;
    }

    /** Where an OK packet's status flags are: after its header, affected rows and last insert id. */
    private static int okStatus(ByteBuf buf, int index) {
        int at = index + 1;
        at += lenencSize(buf.getUnsignedByte(at));
        at += lenencSize(buf.getUnsignedByte(at));
        return at;
    }

    private static int lenencSize(int first) {
        return switch (first) {
            case 0xFC -> 3;
            case 0xFD -> 4;
            case 0xFE -> 9;
            default -> 1;
        };
    }

    private static long lenenc(ByteBuf buf, int index) {
        int first = buf.getUnsignedByte(index);
        return switch (first) {
            case 0xFC -> buf.getUnsignedShortLE(index + 1);
            case 0xFD -> buf.getUnsignedMediumLE(index + 1);
            case 0xFE -> buf.getLongLE(index + 1);
            default -> first;
        };
    }
}
