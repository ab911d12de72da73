package io.shardgate.proxy.protocol.compress;

import io.netty.buffer.ByteBuf;

/** The per-channel compression state of one {@link CompressionAlgorithm}. Not thread safe. */
public interface Compressor extends AutoCloseable {

    /**
     * Compresses the readable bytes of {@code src} as one self-contained compressed payload and
     * appends it to {@code dst}, but only if it is shorter than the input.
     *
     * @return {@code true} if the compressed payload was appended; {@code false} if compression
     *         would not shrink the input, in which case {@code dst} is left as it was
     *         (the caller then sends the bytes uncompressed). {@code src}'s reader index never moves.
     */
    boolean compress(ByteBuf src, ByteBuf dst);

    /** Frees the native state; the compressor must not be used afterwards. */
    @Override
    void close();
}
