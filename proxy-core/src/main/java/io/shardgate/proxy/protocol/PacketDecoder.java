package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.TooLongFrameException;

import java.util.List;

/**
 * Frames the byte stream into {@link MySqlPacket}s: a 3-byte little-endian payload length and a
 * sequence id, then the payload. Each packet owns its bytes (copied out of the cumulation), so
 * memory is bounded by the packets still in flight. A payload of exactly 0xFFFFFF bytes continues in the next wire
 * packet; those are joined here, so a packet of any size comes out whole. A packet longer than
 * {@code maxPacketSize} fails with {@link PacketTooLargeException} before its bytes are buffered.
 */
public final class PacketDecoder extends ByteToMessageDecoder {
    public static final int MAX_WIRE_PAYLOAD = 0xFFFFFF;
    private static final int HEADER = 4;

    private final long maxPacketSize;
    private CompositeByteBuf joining;
    private int joiningSequence;
    private boolean failed;

    public PacketDecoder(long maxPacketSize) {
        this.maxPacketSize = maxPacketSize;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            // After an oversized packet the stream cannot be re-framed: drop everything (the connection is closing).
            in.skipBytes(in.readableBytes());
            return;
        }
        while (in.readableBytes() >= HEADER) {
            int start = in.readerIndex();
            int length = in.getUnsignedMediumLE(start);
            int sequence = in.getUnsignedByte(start + 3);
            long total = (joining == null ? 0 : joining.readableBytes()) + (long) length;
            if (total > maxPacketSize) {
                discardJoining();
                failed = true;
                in.skipBytes(in.readableBytes());
                throw new PacketTooLargeException(total, maxPacketSize, sequence);
            }
            if (in.readableBytes() < HEADER + length) {
                return;
            }
            in.skipBytes(HEADER);
            // A copy, not a slice: a slice held by a slow client would pin the whole cumulation buffer,
            // which then cannot discard what was read and grows without bound (seen: 71 MB for 1 MB rows).
            ByteBuf part = ctx.alloc().ioBuffer(length);
            part.writeBytes(in, length);
            if (length == MAX_WIRE_PAYLOAD) {
                if (joining == null) {
                    joining = ctx.alloc().compositeBuffer(Integer.MAX_VALUE);
                    joiningSequence = sequence;
                }
                joining.addComponent(true, part);
                continue;
            }
            if (joining != null) {
                joining.addComponent(true, part);
                out.add(new MySqlPacket(joiningSequence, joining));
                joining = null;
            } else {
                out.add(new MySqlPacket(sequence, part));
            }
        }
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        discardJoining();
    }

    private void discardJoining() {
        if (joining != null) {
            joining.release();
            joining = null;
        }
    }

    /** A packet longer than allowed; its bytes were not buffered. */
    public static final class PacketTooLargeException extends TooLongFrameException {
        private static final long serialVersionUID = 1L;
        private final long length;
        private final long max;
        private final int sequenceId;

        PacketTooLargeException(long length, long max, int sequenceId) {
            super("packet length: " + length + " (expected: <= " + max + ")");
            this.length = length;
            this.max = max;
            this.sequenceId = sequenceId;
        }

        /**
         * The sequence id of the wire packet that went over the limit (a later piece of a split
         * packet has a later id): the ERR that answers it takes the next one, as the client expects.
         */
        public int sequenceId() {
            return sequenceId;
        }

        public long length() {
            return length;
        }

        public long max() {
            return max;
        }
    }
}
