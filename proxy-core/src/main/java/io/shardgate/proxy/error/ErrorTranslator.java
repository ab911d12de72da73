package io.shardgate.proxy.error;

import io.netty.handler.codec.DecoderException;
import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.MalformedPacketException;
import io.shardgate.proxy.protocol.PacketDecoder;

import java.sql.SQLException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The one place where exceptions become ERR packets, and where it is decided whether the client
 * connection survives the error (the shape of ShardingSphere's MySQLErrorPacketFactory). Every
 * exception the proxy raises on a client's behalf is one of:
 * <ul>
 *   <li>a {@link ShardgateException} (or a subclass: a global sequence's, an XA step's): its catalog
 *       entry; the connection is closed only for the connection phase's refusals, protocol violations
 *       and {@link ErrorCode#INTERNAL} ({@link #closesConnection(ErrorCode)});</li>
 *   <li>a {@link BackendErrorException}: the backend's ERR, verbatim; a control-plane
 *       {@link SQLException} with a server's error number is relayed the same way;</li>
 *   <li>text the client's character set cannot carry: {@link ErrorCode#UNSUPPORTED};</li>
 *   <li>a protocol violation ({@link PacketDecoder.PacketTooLargeException}, {@link MalformedPacketException},
 *       a Netty {@link DecoderException}): its catalog entry, and the connection is closed;</li>
 *   <li>anything else is a bug: {@link ErrorCode#INTERNAL}, logged with its stack trace, and the
 *       connection is closed.</li>
 * </ul>
 */
public final class ErrorTranslator {
    private static final System.Logger LOG = System.getLogger(ErrorTranslator.class.getName());
    /** Starts the log line of every internal error; the integration tests fail on it (issue 16: no ERR 1105). */
    public static final String INTERNAL_ERROR_LOG = "Internal error in Shardgate, answered with ERR 1105";

    public record Translation(ErrPacket packet, boolean closeConnection) {
    }

    public Translation translate(Throwable error) {
        return translate(error, null);
    }

    /**
     * As {@link #translate(Throwable)}, logged for the connection {@code who} names: an internal
     * error with its stack at ERROR, any other at DEBUG (null: an internal error only, unnamed).
     */
    public Translation translate(Throwable error, String who) {
        Translation translation = translation(error, who);
        if (who != null && translation.packet().errno() != ErrorCode.INTERNAL.errno()) {
            LOG.log(System.Logger.Level.DEBUG, who + ": " + error);
        }
        return translation;
    }

    private Translation translation(Throwable error, String who) {
        Throwable cause = unwrap(error);
        if (cause instanceof ShardgateException e) {
            return new Translation(ErrPacket.of(e), closesConnection(e.code()));
        }
        if (cause instanceof BackendErrorException e) {
            return new Translation(e.packet(), false);
        }
        if (cause instanceof ClientCharset.UnmappableTextException e) {
            return new Translation(ErrPacket.of(ErrorCode.UNSUPPORTED, e.getMessage()), false);
        }
        if (cause instanceof PacketDecoder.PacketTooLargeException) {
            return new Translation(ErrPacket.of(ErrorCode.PACKET_TOO_LARGE), true);
        }
        if (cause instanceof MalformedPacketException || cause instanceof DecoderException) {
            return new Translation(ErrPacket.of(ErrorCode.MALFORMED_PACKET, String.valueOf(cause.getMessage())), true);
        }
        if (cause instanceof SQLException e && isServerError(e)) {
            return new Translation(new ErrPacket(e.getErrorCode(), e.getSQLState(), String.valueOf(e.getMessage())), false);
        }
        // A bug, not an answer: the stack trace is the only place that says where it came from.
        LOG.log(System.Logger.Level.ERROR, who == null ? INTERNAL_ERROR_LOG : INTERNAL_ERROR_LOG + " (" + who + ")", cause);
        return new Translation(ErrPacket.of(ErrorCode.INTERNAL, cause.getClass().getSimpleName() + ": " + cause.getMessage()), true);
    }

    /**
     * Whether the client connection is closed after {@code code}: the connection phase's refusals, the
     * protocol violations (after which the packet stream cannot be trusted) and a bug. Every other error
     * leaves the session usable.
     */
    public static boolean closesConnection(ErrorCode code) {
        return switch (code) {
            case ACCESS_DENIED, INSECURE_TRANSPORT, TOO_MANY_CONNECTIONS, HANDSHAKE_ERROR, PACKET_TOO_LARGE,
                    PACKETS_OUT_OF_ORDER, MALFORMED_PACKET, INTERNAL -> true;
            default -> false;
        };
    }

    /** Whether {@code error} is a backend's own ERR (which metrics count by error class). */
    public static boolean fromBackend(Throwable error) {
        return unwrap(error) instanceof BackendErrorException;
    }

    /** A server's error (1000-1999, 3000-4999) with a SQLSTATE, not a driver's own (2000-2999, or 0). */
    private static boolean isServerError(SQLException e) {
        int errno = e.getErrorCode();
        return (errno >= 1000 && errno < 2000 || errno >= 3000 && errno < 5000)
                && e.getSQLState() != null && e.getSQLState().length() == 5;
    }

    private static Throwable unwrap(Throwable error) {
        Throwable current = error;
        // Only Netty's plain wrapper: its subclasses (CompressedFrameException, TooLongFrameException, ...) are
        // the answer themselves, while their causes (a DataFormatException, say) would read as a Shardgate bug.
        while ((current.getClass() == DecoderException.class
                || current instanceof CompletionException
                || current instanceof ExecutionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }
}
