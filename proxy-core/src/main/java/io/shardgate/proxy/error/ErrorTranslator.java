package io.shardgate.proxy.error;

import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.MalformedPacketException;
import io.shardgate.proxy.protocol.PacketDecoder;

/**
 * The one place where exceptions become ERR packets, and where it is decided whether the client
 * connection survives the error.
 */
public final class ErrorTranslator {
    private static final System.Logger LOG = System.getLogger(ErrorTranslator.class.getName());
    /** Starts the log line of every internal error; the integration tests fail on it (issue 16: no ERR 1105). */
    public static final String INTERNAL_ERROR_LOG = "Internal error in Shardgate, answered with ERR 1105";

    public record Translation(ErrPacket packet, boolean closeConnection) {
    }

    public Translation translate(Throwable error) {
        Throwable cause = unwrap(error);
        if (cause instanceof ShardgateException e) {
            boolean close = switch (e.code()) {
                case ACCESS_DENIED, INSECURE_TRANSPORT, TOO_MANY_CONNECTIONS, HANDSHAKE_ERROR, PACKET_TOO_LARGE,
                        PACKETS_OUT_OF_ORDER, MALFORMED_PACKET, INTERNAL -> true;
                default -> false;
            };
            return new Translation(e.packet(), close);
        }
        if (cause instanceof io.shardgate.router.error.PlanningException e) {
            return new Translation(new ErrPacket(e.errno(), e.sqlState(), e.getMessage()), false);
        }
        if (cause instanceof io.shardgate.proxy.protocol.ClientCharset.UnmappableTextException e) {
            return new Translation(ErrorCode.UNSUPPORTED.packet(e.getMessage()), false);
        }
        if (cause instanceof BackendErrorException e) {
            return new Translation(e.packet(), false);
        }
        if (cause instanceof PacketDecoder.PacketTooLargeException) {
            return new Translation(ErrorCode.PACKET_TOO_LARGE.packet(), true);
        }
        if (cause instanceof MalformedPacketException || cause instanceof io.netty.handler.codec.DecoderException) {
            return new Translation(ErrorCode.MALFORMED_PACKET.packet(String.valueOf(cause.getMessage())), true);
        }
        // A bug, not an answer: the stack trace is the only place that says where it came from.
        LOG.log(System.Logger.Level.ERROR, INTERNAL_ERROR_LOG, cause);
        return new Translation(ErrorCode.INTERNAL.packet(cause.getClass().getSimpleName() + ": " + cause.getMessage()), true);
    }

    /** Whether {@code error} is a backend's own ERR (which metrics count by error class). */
    public static boolean fromBackend(Throwable error) {
        return unwrap(error) instanceof BackendErrorException;
    }

    private static Throwable unwrap(Throwable error) {
        Throwable current = error;
        // Only Netty's plain wrapper: its subclasses (CompressedFrameException, TooLongFrameException, ...) are
        // the answer themselves, while their causes (a DataFormatException, say) would read as a Shardgate bug.
        while ((current.getClass() == io.netty.handler.codec.DecoderException.class
                || current instanceof java.util.concurrent.CompletionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }
}
