package io.shardgate.proxy.protocol.compress;

import io.netty.buffer.ByteBuf;

/** The per-channel decompression state of one {@link CompressionAlgorithm}. Not thread safe. */
public interface Decompressor extends AutoCloseable {

    /**
     * Decompresses all readable bytes of {@code src}, which must be one whole compressed payload,
     * into exactly {@code uncompressedLength} bytes appended to {@code dst}.
     *
     * @throws CompressedFrameException if the payload is corrupt, truncated, or does not
     *         decompress to exactly {@code uncompressedLength} bytes
     */
    void decompress(ByteBuf src, ByteBuf dst, int uncompressedLength);

    /** Frees the native state; the decompressor must not be used afterwards. */
    @Override
    void close();
}
