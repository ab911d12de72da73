package io.shardgate.proxy.protocol.compress;

import io.netty.handler.codec.CorruptedFrameException;

/**
 * A compressed frame that cannot be decoded: bad header, out-of-order sequence id, corrupt
 * payload, or a payload that does not decompress to its declared length. The compressed stream
 * cannot be resynchronised after one; the connection must be closed.
 */
public final class CompressedFrameException extends CorruptedFrameException {

    public CompressedFrameException(String message) {
        super(message);
    }

    public CompressedFrameException(String message, Throwable cause) {
        super(message, cause);
    }
}
