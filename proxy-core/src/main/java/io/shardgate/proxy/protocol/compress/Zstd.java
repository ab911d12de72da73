package io.shardgate.proxy.protocol.compress;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

/**
 * zstd compression ({@code CLIENT_ZSTD_COMPRESSION_ALGORITHM}): every compressed payload is one
 * complete zstd frame, as produced by {@code ZSTD_compressCCtx}. The client picks the level and
 * sends it as the last byte of its HandshakeResponse41; the server compresses its replies with it.
 *
 * <p>zstd-jni contexts are reused for every frame of a channel. zstd-jni reads and writes either
 * byte arrays or direct buffers; mixed or composite buffers go through a copy.
 *
 * @param level the zstd level, 1..22
 */
public record Zstd(int level) implements CompressionAlgorithm {

    /** CLIENT_ZSTD_COMPRESSION_ALGORITHM. */
    public static final long CLIENT_ZSTD_COMPRESSION_ALGORITHM =
            io.shardgate.proxy.protocol.Capabilities.CLIENT_ZSTD_COMPRESSION_ALGORITHM;
    /** The level a MySQL client uses when none is configured. */
    public static final int DEFAULT_LEVEL = 3;
    public static final int MIN_LEVEL = 1;
    public static final int MAX_LEVEL = 22;

    public Zstd {
        if (level < MIN_LEVEL || level > MAX_LEVEL) {
            throw new IllegalArgumentException("level: " + level + " (expected: " + MIN_LEVEL + ".." + MAX_LEVEL + ")");
        }
    }

    /** zstd at the default level 3. */
    public Zstd() {
        this(DEFAULT_LEVEL);
    }

    @Override
    public long capabilityFlag() {
        return CLIENT_ZSTD_COMPRESSION_ALGORITHM;
    }

    @Override
    public Compressor newCompressor() {
        return new ZstdCompressor(new ZstdCompressCtx().setLevel(level));
    }

    @Override
    public Decompressor newDecompressor() {
        return new ZstdDecompressor(new ZstdDecompressCtx());
    }

    private static final class ZstdCompressor implements Compressor {
        private final ZstdCompressCtx context;

        ZstdCompressor(ZstdCompressCtx context) {
            this.context = context;
        }

        @Override
        public boolean compress(ByteBuf src, ByteBuf dst) {
            int length = src.readableBytes();
            int bound = Math.toIntExact(com.github.luben.zstd.Zstd.compressBound(length));
            int start = dst.writerIndex();
            dst.ensureWritable(bound);
            int written;
            if (dst.hasArray() && src.hasArray()) {
                written = context.compressByteArray(dst.array(), dst.arrayOffset() + start, bound,
                        src.array(), src.arrayOffset() + src.readerIndex(), length);
            } else if (dst.isDirect() && src.isDirect() && src.nioBufferCount() == 1) {
                written = context.compressDirectByteBuffer(dst.nioBuffer(start, bound), 0, bound,
                        src.nioBuffer(), 0, length);
            } else {
                byte[] out = new byte[bound];
                written = context.compressByteArray(out, 0, bound, ByteBufUtil.getBytes(src), 0, length);
                dst.setBytes(start, out, 0, Math.min(written, length));
            }
            if (written >= length) {
                return false;
            }
            dst.writerIndex(start + written);
            return true;
        }

        @Override
        public void close() {
            context.close();
        }
    }

    private static final class ZstdDecompressor implements Decompressor {
        private final ZstdDecompressCtx context;

        ZstdDecompressor(ZstdDecompressCtx context) {
            this.context = context;
        }

        @Override
        public void decompress(ByteBuf src, ByteBuf dst, int uncompressedLength) {
            int length = src.readableBytes();
            int start = dst.writerIndex();
            dst.ensureWritable(uncompressedLength);
            int written;
            try {
                if (dst.hasArray() && src.hasArray()) {
                    written = context.decompressByteArray(dst.array(), dst.arrayOffset() + start, uncompressedLength,
                            src.array(), src.arrayOffset() + src.readerIndex(), length);
                } else if (dst.isDirect() && src.isDirect() && src.nioBufferCount() == 1) {
                    written = context.decompressDirectByteBuffer(dst.nioBuffer(start, uncompressedLength), 0,
                            uncompressedLength, src.nioBuffer(), 0, length);
                } else {
                    byte[] out = new byte[uncompressedLength];
                    written = context.decompressByteArray(out, 0, uncompressedLength, ByteBufUtil.getBytes(src), 0, length);
                    dst.setBytes(start, out, 0, Math.min(written, uncompressedLength));
                }
            } catch (ZstdException e) {
                if (e.getErrorCode() == com.github.luben.zstd.Zstd.errDstSizeTooSmall()) {
                    throw new CompressedFrameException("zstd payload decompresses to more than its uncompressed length: "
                            + uncompressedLength, e);
                }
                throw new CompressedFrameException("corrupt zstd payload: " + e.getMessage(), e);
            }
            if (written != uncompressedLength) {
                throw new CompressedFrameException("uncompressed length: " + written
                        + " (expected: " + uncompressedLength + ")");
            }
            src.skipBytes(length);
            dst.writerIndex(start + uncompressedLength);
        }

        @Override
        public void close() {
            context.close();
        }
    }
}
