package io.shardgate.proxy.protocol.compress;

/**
 * A compression algorithm of the MySQL compressed protocol, negotiated in the handshake by
 * {@code CLIENT_COMPRESS} (zlib) or {@code CLIENT_ZSTD_COMPRESSION_ALGORITHM} (zstd, with a level).
 *
 * <p>An algorithm is an immutable description, shared freely. The compression state lives in the
 * {@link Compressor} and {@link Decompressor} it creates: one of each per channel, reused for every
 * frame and closed when the handler is removed.
 *
 * @see <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_basic_compression.html">Compression</a>
 */
public sealed interface CompressionAlgorithm permits Zlib, Zstd {

    /** The capability flag that negotiates this algorithm. */
    long capabilityFlag();

    /** A new compressor; not thread safe, owned by one channel. */
    Compressor newCompressor();

    /** A new decompressor; not thread safe, owned by one channel. */
    Decompressor newDecompressor();
}
