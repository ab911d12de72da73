package io.shardgate.proxy.protocol.compress;

import static java.util.Objects.requireNonNull;

import io.netty.channel.ChannelPipeline;
import java.util.Optional;

/**
 * Negotiates the MySQL compressed protocol and installs its handlers.
 *
 * <p>Compression starts with the first command after the handshake: the auth OK packet is still
 * sent uncompressed. The front end installs the handlers right after writing the OK packet (before
 * the client can send anything compressed); the backend right after reading it. Install on the
 * channel's event loop, in the same task that writes (or reads) the OK packet: a write issued on
 * the event loop has passed the pipeline before the call returns, so the OK is not compressed,
 * and no compressed byte can have been read yet.
 */
public final class Compression {

    /** Name of the {@link CompressedFrameDecoder} in the pipeline. */
    public static final String DECODER_NAME = "compressedFrameDecoder";
    /** Name of the {@link CompressedFrameEncoder} in the pipeline. */
    public static final String ENCODER_NAME = "compressedFrameEncoder";
    /** Length of a compressed frame's header. */
    public static final int HEADER_LENGTH = 7;
    /** The largest payload a frame carries, before or after compression (a 3-byte length). */
    public static final int MAX_FRAME_PAYLOAD = 0xFF_FFFF;
    /** Payloads shorter than this are not worth compressing (MySQL's MIN_COMPRESS_LENGTH). */
    public static final int MIN_COMPRESS_LENGTH = 50;

    private Compression() {
    }

    /**
     * Installs the server side (the front end): the decoder and encoder go in front of
     * {@code beforeHandlerName}, normally the packet framer.
     *
     * @return the channel's compressed sequence, shared by the two handlers
     */
    /** Name of the handler that packs one flush's packets into one frame (server side). */
    public static final String COALESCER_NAME = "compressedFlushCoalescer";

    public static CompressionSequence install(ChannelPipeline pipeline, String beforeHandlerName, CompressionAlgorithm algorithm) {
        return install(pipeline, beforeHandlerName, algorithm, CompressionSequence.Side.SERVER);
    }

    /**
     * Installs the client side (a backend connection): like {@link #install}, but the encoder
     * restarts the compressed sequence at 0 with each command.
     *
     * @return the channel's compressed sequence, shared by the two handlers
     */
    public static CompressionSequence installClient(ChannelPipeline pipeline, String beforeHandlerName, CompressionAlgorithm algorithm) {
        return install(pipeline, beforeHandlerName, algorithm, CompressionSequence.Side.CLIENT);
    }

    private static CompressionSequence install(ChannelPipeline pipeline, String beforeHandlerName,
            CompressionAlgorithm algorithm, CompressionSequence.Side side) {
        requireNonNull(pipeline, "pipeline is null");
        requireNonNull(beforeHandlerName, "beforeHandlerName is null");
        requireNonNull(algorithm, "algorithm is null");
        if (pipeline.context(beforeHandlerName) == null) {
            throw new IllegalArgumentException("no handler named '" + beforeHandlerName + "' in the pipeline");
        }
        CompressionSequence sequence = new CompressionSequence(side);
        pipeline.addBefore(beforeHandlerName, DECODER_NAME, new CompressedFrameDecoder(algorithm, sequence));
        pipeline.addBefore(beforeHandlerName, ENCODER_NAME, new CompressedFrameEncoder(algorithm, sequence));
        if (side == CompressionSequence.Side.SERVER) {
            pipeline.addAfter(ENCODER_NAME, COALESCER_NAME, new FlushCoalescer());
        }
        return sequence;
    }

    /**
     * The algorithm a handshake settles on: zlib if both ends set CLIENT_COMPRESS (it wins when
     * both flags are set), else zstd at the client's level if both set
     * CLIENT_ZSTD_COMPRESSION_ALGORITHM, else none.
     *
     * @param zstdLevel the level the client sent at the end of its HandshakeResponse41;
     *        ignored unless zstd is chosen
     * @throws IllegalArgumentException if zstd is chosen and the level is not 1..22
     */
    public static Optional<CompressionAlgorithm> negotiate(long serverCapabilities, long clientCapabilities, int zstdLevel) {
        long common = serverCapabilities & clientCapabilities;
        if ((common & Zlib.CLIENT_COMPRESS) != 0) {
            return Optional.of(new Zlib());
        }
        if ((common & Zstd.CLIENT_ZSTD_COMPRESSION_ALGORITHM) != 0) {
            // A client that sent no level gets zstd's default.
            return Optional.of(zstdLevel == 0 ? new Zstd() : new Zstd(zstdLevel));
        }
        return Optional.empty();
    }
}
