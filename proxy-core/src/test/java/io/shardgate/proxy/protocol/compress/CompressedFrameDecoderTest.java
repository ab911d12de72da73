package io.shardgate.proxy.protocol.compress;

import static io.shardgate.proxy.protocol.compress.FrameTestSupport.compressible;
import static io.shardgate.proxy.protocol.compress.FrameTestSupport.concat;
import static io.shardgate.proxy.protocol.compress.FrameTestSupport.drainInbound;
import static io.shardgate.proxy.protocol.compress.FrameTestSupport.frame;
import static io.shardgate.proxy.protocol.compress.FrameTestSupport.packet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.github.luben.zstd.ZstdCompressCtx;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import org.junit.jupiter.api.Test;

/** Frames built by hand: what other implementations send, and corrupt input. */
class CompressedFrameDecoderTest {

    private static final byte[] QUERY = packet(0, concat(new byte[] {3}, compressible(500)));

    private static byte[] zlib(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DeflaterOutputStream deflater = new DeflaterOutputStream(out, new Deflater(6))) {
            deflater.write(data);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        return out.toByteArray();
    }

    private static byte[] zstd(byte[] data) {
        try (ZstdCompressCtx context = new ZstdCompressCtx().setLevel(3)) {
            return context.compress(data);
        }
    }

    private static EmbeddedChannel decoder(CompressionAlgorithm algorithm) {
        return new EmbeddedChannel(new CompressedFrameDecoder(algorithm, new CompressionSequence(CompressionSequence.Side.SERVER)));
    }

    @Test
    void decodesZlibFrameFromAnotherImplementation() {
        EmbeddedChannel channel = decoder(new Zlib());
        channel.writeInbound(Unpooled.wrappedBuffer(frame(0, QUERY.length, zlib(QUERY))));
        assertThat(drainInbound(channel)).isEqualTo(QUERY);
        assertFalse(channel.finish());
    }

    /** A COM_QUERY "select 1" padded to 60 bytes, compressed by python-zstandard 0.20 at level 3. */
    @Test
    void decodesZstdFrameFromPythonZstandard() {
        byte[] query = packet(0, concat(new byte[] {3}, "select 1".getBytes(), new byte[] {' '}, " ".repeat(50).getBytes()));
        byte[] compressed = HexFormat.of().parseHex(PYTHON_ZSTD_FRAME);
        EmbeddedChannel channel = decoder(new Zstd());
        channel.writeInbound(Unpooled.wrappedBuffer(frame(0, query.length, compressed)));
        assertThat(drainInbound(channel)).isEqualTo(query);
        assertFalse(channel.finish());
    }

    private static final String PYTHON_ZSTD_FRAME = "28b52ffd2040a50000703c0000000373656c6563742031200100474009";

    @Test
    void uncompressedFrameIsPassedThrough() {
        EmbeddedChannel channel = decoder(new Zstd());
        byte[] ping = packet(0, new byte[] {0x0E});
        channel.writeInbound(Unpooled.wrappedBuffer(frame(0, 0, ping)));
        assertThat(drainInbound(channel)).isEqualTo(ping);
        assertFalse(channel.finish());
    }

    @Test
    void emptyFrameEmitsNothing() {
        EmbeddedChannel channel = decoder(new Zlib());
        channel.writeInbound(Unpooled.wrappedBuffer(frame(0, 0, new byte[0])));
        assertThat(channel.<Object>readInbound()).isNull();
        assertFalse(channel.finish());
    }

    @Test
    void badZlibData() {
        byte[] garbage = zlib(QUERY);
        garbage[5] ^= 0x55;
        garbage[6] ^= 0x55;
        assertCorrupt(new Zlib(), frame(0, QUERY.length, garbage), "zlib");
    }

    @Test
    void notZlibAtAll() {
        assertCorrupt(new Zlib(), frame(0, 100, "this is not a zlib stream at all".getBytes()), "corrupt zlib payload");
    }

    @Test
    void truncatedZlibData() {
        byte[] compressed = zlib(QUERY);
        assertCorrupt(new Zlib(), frame(0, QUERY.length, Arrays.copyOf(compressed, compressed.length - 8)),
                "truncated zlib payload");
    }

    @Test
    void zlibUncompressedLengthTooLarge() {
        assertCorrupt(new Zlib(), frame(0, QUERY.length + 1, zlib(QUERY)),
                "uncompressed length: " + QUERY.length + " (expected: " + (QUERY.length + 1) + ")");
    }

    @Test
    void zlibUncompressedLengthTooSmall() {
        assertCorrupt(new Zlib(), frame(0, QUERY.length - 1, zlib(QUERY)),
                "zlib payload inflates to more than its uncompressed length: " + (QUERY.length - 1));
    }

    @Test
    void trailingBytesAfterZlibStream() {
        assertCorrupt(new Zlib(), frame(0, QUERY.length, concat(zlib(QUERY), new byte[] {1, 2})),
                "2 trailing bytes after the zlib stream");
    }

    @Test
    void badZstdData() {
        assertCorrupt(new Zstd(), frame(0, 100, "this is not a zstd frame".getBytes()), "corrupt zstd payload");
    }

    @Test
    void zstdUncompressedLengthTooLarge() {
        assertCorrupt(new Zstd(), frame(0, QUERY.length + 1, zstd(QUERY)),
                "uncompressed length: " + QUERY.length + " (expected: " + (QUERY.length + 1) + ")");
    }

    @Test
    void zstdUncompressedLengthTooSmall() {
        assertCorrupt(new Zstd(), frame(0, QUERY.length - 1, zstd(QUERY)),
                "zstd payload decompresses to more than its uncompressed length: " + (QUERY.length - 1));
    }

    @Test
    void zlibDataGivenToZstd() {
        assertCorrupt(new Zstd(), frame(0, QUERY.length, zlib(QUERY)), "corrupt zstd payload");
    }

    @Test
    void oversizedUncompressedLengthIsRejectedFromTheHeaderAlone() {
        EmbeddedChannel channel = new EmbeddedChannel(new CompressedFrameDecoder(new Zlib(),
                new CompressionSequence(CompressionSequence.Side.SERVER), 1024));
        byte[] header = Arrays.copyOf(frame(0, 2000, new byte[100]), 7);
        assertThatThrownBy(() -> channel.writeInbound(Unpooled.wrappedBuffer(header)))
                .isInstanceOf(CompressedFrameException.class)
                .hasMessage("uncompressed length: 2000 (expected: <= 1024)");
        assertFalse(channel.finish());
    }

    @Test
    void oversizedUncompressedFrameIsRejectedFromTheHeaderAlone() {
        EmbeddedChannel channel = new EmbeddedChannel(new CompressedFrameDecoder(new Zlib(),
                new CompressionSequence(CompressionSequence.Side.SERVER), 1024));
        byte[] header = Arrays.copyOf(frame(0, 0, new byte[2000]), 7);
        assertThatThrownBy(() -> channel.writeInbound(Unpooled.wrappedBuffer(header)))
                .isInstanceOf(CompressedFrameException.class)
                .hasMessage("length: 2000 (expected: <= 1024)");
        assertFalse(channel.finish());
    }

    @Test
    void compressedFrameWithEmptyPayload() {
        assertCorrupt(new Zlib(), frame(0, 10, new byte[0]), "length: 0 (expected: > 0 for a compressed payload of 10 bytes)");
    }

    @Test
    void outOfOrderSequenceId() {
        EmbeddedChannel channel = decoder(new Zlib());
        channel.writeInbound(Unpooled.wrappedBuffer(frame(0, 0, packet(0, new byte[] {0x0E}))));
        assertThat(drainInbound(channel)).hasSize(5);
        assertThatThrownBy(() -> channel.writeInbound(Unpooled.wrappedBuffer(frame(5, 0, packet(1, new byte[] {1})))))
                .isInstanceOf(CompressedFrameException.class)
                .hasMessage("compressed sequence id: 5 (expected: 1 or 0 for a new command)");
        assertFalse(channel.finish());
    }

    @Test
    void invalidMaxLength() {
        CompressionSequence sequence = new CompressionSequence(CompressionSequence.Side.SERVER);
        assertThatThrownBy(() -> new CompressedFrameDecoder(new Zlib(), sequence, 0x100_0000))
                .hasMessage("maxUncompressedLength: 16777216 (expected: 1..16777215)");
        assertThatThrownBy(() -> new CompressedFrameDecoder(null, sequence))
                .hasMessage("algorithm is null");
    }

    /** The corrupt frame throws once; the decoder then discards everything, valid frames included. */
    private static void assertCorrupt(CompressionAlgorithm algorithm, byte[] corruptFrame, String message) {
        EmbeddedChannel channel = decoder(algorithm);
        byte[] valid = frame(1, 0, packet(0, new byte[] {0x0E}));
        assertThatThrownBy(() -> channel.writeInbound(Unpooled.wrappedBuffer(concat(corruptFrame, valid))))
                .isInstanceOf(CompressedFrameException.class)
                .hasMessageContaining(message);
        assertThat(channel.<Object>readInbound()).isNull();
        assertFalse(channel.writeInbound(Unpooled.wrappedBuffer(valid)));
        assertFalse(channel.finish());
    }
}
