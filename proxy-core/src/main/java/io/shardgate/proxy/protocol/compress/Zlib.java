package io.shardgate.proxy.protocol.compress;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * zlib compression ({@code CLIENT_COMPRESS}): every compressed payload is one complete zlib
 * stream (RFC 1950 header, deflate data, Adler-32), as produced by zlib's {@code compress()}.
 * The level is the sender's choice and not negotiated; MySQL uses 6.
 *
 * @param level the deflate level, 1..9
 */
public record Zlib(int level) implements CompressionAlgorithm {

    /** CLIENT_COMPRESS. */
    public static final long CLIENT_COMPRESS = io.shardgate.proxy.protocol.Capabilities.CLIENT_COMPRESS;
    /** The level MySQL and MariaDB use. */
    public static final int DEFAULT_LEVEL = 6;

    public Zlib {
        if (level < Deflater.BEST_SPEED || level > Deflater.BEST_COMPRESSION) {
            throw new IllegalArgumentException("level: " + level + " (expected: 1..9)");
        }
    }

    /** zlib at the default level 6. */
    public Zlib() {
        this(DEFAULT_LEVEL);
    }

    @Override
    public long capabilityFlag() {
        return CLIENT_COMPRESS;
    }

    @Override
    public Compressor newCompressor() {
        return new ZlibCompressor(new Deflater(level));
    }

    @Override
    public Decompressor newDecompressor() {
        return new ZlibDecompressor(new Inflater());
    }

    private static final class ZlibCompressor implements Compressor {
        private final Deflater deflater;

        ZlibCompressor(Deflater deflater) {
            this.deflater = deflater;
        }

        @Override
        public boolean compress(ByteBuf src, ByteBuf dst) {
            int length = src.readableBytes();
            int start = dst.writerIndex();
            // Compressed output of length bytes or more is useless: cap the output there.
            dst.ensureWritable(length);
            deflater.reset();
            deflater.setInput(src.nioBuffer());
            deflater.finish();
            ByteBuffer out = dst.nioBuffer(start, length);
            while (!deflater.finished() && out.hasRemaining()) {
                deflater.deflate(out);
            }
            if (!deflater.finished() || out.position() >= length) {
                return false;
            }
            dst.writerIndex(start + out.position());
            return true;
        }

        @Override
        public void close() {
            deflater.end();
        }
    }

    private static final class ZlibDecompressor implements Decompressor {
        private final Inflater inflater;

        ZlibDecompressor(Inflater inflater) {
            this.inflater = inflater;
        }

        @Override
        public void decompress(ByteBuf src, ByteBuf dst, int uncompressedLength) {
            int start = dst.writerIndex();
            dst.ensureWritable(uncompressedLength);
            inflater.reset();
            inflater.setInput(src.nioBuffer());
            ByteBuffer out = dst.nioBuffer(start, uncompressedLength);
            try {
                while (!inflater.finished() && out.hasRemaining()) {
                    int remainingBefore = inflater.getRemaining();
                    if (inflater.inflate(out) == 0 && inflater.getRemaining() == remainingBefore) {
                        break; // no progress: needs input (truncated) or a preset dictionary
                    }
                }
                if (inflater.needsDictionary()) {
                    throw new CompressedFrameException("corrupt zlib payload: it asks for a preset dictionary");
                }
                if (!inflater.finished() && !out.hasRemaining()) {
                    // Output is full: does the stream hold more than declared?
                    ByteBuffer probe = ByteBuffer.allocate(1);
                    if (inflater.inflate(probe) > 0) {
                        throw new CompressedFrameException("zlib payload inflates to more than its uncompressed length: "
                                + uncompressedLength);
                    }
                }
            } catch (DataFormatException e) {
                throw new CompressedFrameException("corrupt zlib payload: " + e.getMessage(), e);
            }
            if (!inflater.finished()) {
                throw new CompressedFrameException("truncated zlib payload: inflated " + out.position()
                        + " bytes (expected: " + uncompressedLength + ")");
            }
            if (out.position() != uncompressedLength) {
                throw new CompressedFrameException("uncompressed length: " + out.position()
                        + " (expected: " + uncompressedLength + ")");
            }
            if (inflater.getRemaining() != 0) {
                throw new CompressedFrameException(inflater.getRemaining() + " trailing bytes after the zlib stream");
            }
            src.skipBytes(src.readableBytes());
            dst.writerIndex(start + uncompressedLength);
        }

        @Override
        public void close() {
            inflater.end();
        }
    }
}
