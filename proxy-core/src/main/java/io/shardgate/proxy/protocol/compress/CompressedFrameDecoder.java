package io.shardgate.proxy.protocol.compress;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Reads compressed frames from the socket and emits the packet-stream bytes they carry, one
 * {@link ByteBuf} per non-empty frame. A frame may hold several packets or a piece of one; the
 * ordinary packet framer behind this handler re-frames the stream, so packet boundaries are not
 * looked at here.
 *
 * <p>A frame is a 7-byte header and a payload:
 * <pre>
 * int&lt;3&gt; length of the payload as sent
 * int&lt;1&gt; compressed sequence id
 * int&lt;3&gt; length of the payload before compression; 0: the payload is sent uncompressed
 * </pre>
 * The decoder is a two-state machine that waits for the whole header, then the whole payload.
 * A corrupt frame throws a {@link CompressedFrameException} and moves it to a terminal state that
 * discards all further input: a compressed stream cannot be resynchronised, so the caller sends
 * an ERR packet and closes the channel.
 *
 * @see <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_basic_compression_packet.html">Compressed Packet</a>
 */
public final class CompressedFrameDecoder extends ByteToMessageDecoder {

    private enum State {
        HEADER,
        PAYLOAD,
        FAILED
    }

    private final CompressionAlgorithm algorithm;
    private final CompressionSequence sequence;
    private final int maxUncompressedLength;
    private Decompressor decompressor;

    private State state = State.HEADER;
    private int payloadLength;
    private int uncompressedLength;

    /** A decoder that accepts frames of up to {@link Compression#MAX_FRAME_PAYLOAD} bytes. */
    public CompressedFrameDecoder(CompressionAlgorithm algorithm, CompressionSequence sequence) {
        this(algorithm, sequence, Compression.MAX_FRAME_PAYLOAD);
    }

    /**
     * @param maxUncompressedLength the largest payload, before compression, a frame may declare
     *        (at most {@link Compression#MAX_FRAME_PAYLOAD}); it bounds the memory one frame takes
     */
    public CompressedFrameDecoder(CompressionAlgorithm algorithm, CompressionSequence sequence, int maxUncompressedLength) {
        this.algorithm = requireNonNull(algorithm, "algorithm is null");
        this.sequence = requireNonNull(sequence, "sequence is null");
        if (maxUncompressedLength < 1 || maxUncompressedLength > Compression.MAX_FRAME_PAYLOAD) {
            throw new IllegalArgumentException("maxUncompressedLength: " + maxUncompressedLength
                    + " (expected: 1.." + Compression.MAX_FRAME_PAYLOAD + ")");
        }
        this.maxUncompressedLength = maxUncompressedLength;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        decompressor = algorithm.newDecompressor();
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        if (decompressor != null) {
            decompressor.close();
            decompressor = null;
        }
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        try {
            if (state == State.FAILED) {
                in.skipBytes(in.readableBytes());
                return;
            }
            if (state == State.HEADER) {
                if (!decodeHeader(in)) {
                    return;
                }
                state = State.PAYLOAD;
            }
            if (decodePayload(ctx, in, out)) {
                state = State.HEADER;
            }
        } catch (CompressedFrameException e) {
            state = State.FAILED;
            in.skipBytes(in.readableBytes());
            throw e;
        }
    }

    /** Reads and validates a header; returns false to wait for more bytes. */
    private boolean decodeHeader(ByteBuf in) {
        if (in.readableBytes() < Compression.HEADER_LENGTH) {
            return false;
        }
        payloadLength = in.readUnsignedMediumLE();
        int sequenceId = in.readUnsignedByte();
        uncompressedLength = in.readUnsignedMediumLE();
        sequence.received(sequenceId);
        if (payloadLength > maxUncompressedLength) {
            // Senders compress only when it shrinks the payload, so this bounds compressed frames too.
            throw new CompressedFrameException("length: " + payloadLength + " (expected: <= " + maxUncompressedLength + ")");
        }
        if (uncompressedLength > maxUncompressedLength) {
            throw new CompressedFrameException("uncompressed length: " + uncompressedLength
                    + " (expected: <= " + maxUncompressedLength + ")");
        }
        if (uncompressedLength > 0 && payloadLength == 0) {
            throw new CompressedFrameException("length: 0 (expected: > 0 for a compressed payload of "
                    + uncompressedLength + " bytes)");
        }
        return true;
    }

    /** Reads a whole payload and emits its bytes; returns false to wait for more bytes. */
    private boolean decodePayload(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (in.readableBytes() < payloadLength) {
            return false;
        }
        if (uncompressedLength == 0) {
            if (payloadLength > 0) {
                out.add(in.readRetainedSlice(payloadLength));
            }
            return true;
        }
        ByteBuf compressed = in.readSlice(payloadLength);
        ByteBuf decompressed = ctx.alloc().buffer(uncompressedLength);
        try {
            decompressor.decompress(compressed, decompressed, uncompressedLength);
        } catch (RuntimeException e) {
            decompressed.release();
            throw e;
        }
        out.add(decompressed);
        return true;
    }
}
