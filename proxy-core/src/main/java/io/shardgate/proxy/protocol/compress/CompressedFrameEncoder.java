package io.shardgate.proxy.protocol.compress;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.util.List;

/**
 * Wraps outgoing packet bytes in compressed frames. Each message is a {@link ByteBuf} of one or
 * more whole MySQL packets (a packet of 16 MiB or more already split at 0xFFFFFF by the packet
 * framer); it becomes one frame per {@link Compression#MAX_FRAME_PAYLOAD} bytes, emitted as one
 * buffer per frame. Messages are never coalesced: MariaDB does not answer two commands sent in
 * one frame.
 *
 * <p>A chunk shorter than the threshold ({@link Compression#MIN_COMPRESS_LENGTH} by default), or
 * one that compression does not shrink, is sent as is with an uncompressed length of 0; its bytes
 * are not copied.
 *
 * <p>Sequence ids come from the shared {@link CompressionSequence}. On the {@link
 * CompressionSequence.Side#CLIENT client} side a message whose first packet has sequence id 0
 * starts a command, so the compressed sequence restarts at 0, unless the previous packet sent had
 * id 255 (then the 0 is a packet id wrapping inside one command, e.g. LOAD DATA LOCAL INFILE
 * contents). A client that needs another rule calls {@link CompressionSequence#reset()} itself.
 */
public final class CompressedFrameEncoder extends MessageToMessageEncoder<ByteBuf> {

    private final CompressionAlgorithm algorithm;
    private final CompressionSequence sequence;
    private final int minCompressLength;
    private Compressor compressor;
    /** The sequence id of the last packet sent (client side only), -1 before the first. */
    private int lastPacketSequenceId = -1;

    /** An encoder that compresses chunks of {@link Compression#MIN_COMPRESS_LENGTH} bytes or more. */
    public CompressedFrameEncoder(CompressionAlgorithm algorithm, CompressionSequence sequence) {
        this(algorithm, sequence, Compression.MIN_COMPRESS_LENGTH);
    }

    /** @param minCompressLength chunks shorter than this are sent uncompressed; at least 1 */
    public CompressedFrameEncoder(CompressionAlgorithm algorithm, CompressionSequence sequence, int minCompressLength) {
        super(ByteBuf.class);
        this.algorithm = requireNonNull(algorithm, "algorithm is null");
        this.sequence = requireNonNull(sequence, "sequence is null");
        if (minCompressLength < 1) {
            throw new IllegalArgumentException("minCompressLength: " + minCompressLength + " (expected: >= 1)");
        }
        this.minCompressLength = minCompressLength;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        compressor = algorithm.newCompressor();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (compressor != null) {
            compressor.close();
            compressor = null;
        }
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, ByteBuf msg, List<Object> out) {
        if (sequence.side() == CompressionSequence.Side.CLIENT) {
            trackCommandStart(msg);
        }
        if (!msg.isReadable()) {
            out.add(msg.retain()); // nothing to frame; an encoder must emit something
            return;
        }
        int index = msg.readerIndex();
        int end = msg.writerIndex();
        while (index < end) {
            int length = Math.min(end - index, Compression.MAX_FRAME_PAYLOAD);
            out.add(frame(ctx, msg.slice(index, length)));
            index += length;
        }
        msg.readerIndex(end);
    }

    private ByteBuf frame(ChannelHandlerContext ctx, ByteBuf chunk) {
        int length = chunk.readableBytes();
        if (length >= minCompressLength) {
            ByteBuf frame = ctx.alloc().buffer(Compression.HEADER_LENGTH + length);
            frame.writerIndex(Compression.HEADER_LENGTH);
            boolean compressed;
            try {
                compressed = compressor.compress(chunk, frame);
            } catch (RuntimeException e) {
                frame.release();
                throw e;
            }
            if (compressed) {
                writeHeader(frame, 0, frame.readableBytes() - Compression.HEADER_LENGTH, length);
                return frame;
            }
            frame.release();
        }
        ByteBuf header = ctx.alloc().buffer(Compression.HEADER_LENGTH);
        writeHeader(header, 0, length, 0);
        header.writerIndex(Compression.HEADER_LENGTH);
        CompositeByteBuf frame = ctx.alloc().compositeBuffer(2);
        frame.addComponents(true, header, chunk.retain());
        return frame;
    }

    private void writeHeader(ByteBuf buf, int index, int payloadLength, int uncompressedLength) {
        buf.setMediumLE(index, payloadLength);
        buf.setByte(index + 3, sequence.nextForSend());
        buf.setMediumLE(index + 4, uncompressedLength);
    }

    /** Restarts the compressed sequence at a command's first packet; see the class comment. */
    private void trackCommandStart(ByteBuf msg) {
        int index = msg.readerIndex();
        int end = msg.writerIndex();
        if (end - index < 4) {
            return;
        }
        if (msg.getUnsignedByte(index + 3) == 0 && lastPacketSequenceId != 0xFF) {
            sequence.reset();
        }
        while (end - index >= 4) {
            lastPacketSequenceId = msg.getUnsignedByte(index + 3);
            index += 4 + msg.getUnsignedMediumLE(index);
        }
    }
}
