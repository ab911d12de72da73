package io.shardgate.proxy.error;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.MalformedPacketException;
import io.shardgate.proxy.protocol.PacketDecoder;
import io.shardgate.proxy.protocol.compress.CompressedFrameException;
import io.shardgate.proxy.sharding.sequence.SequenceAllocationException;
import io.shardgate.proxy.sharding.xa.XaException;
import io.shardgate.router.schema.Sequence;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.ConnectException;
import java.sql.SQLException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Every exception type the proxy raises on a client's behalf, and what the client gets for it: the
 * error number, the SQLSTATE, and whether its connection is closed. Only the connection phase's refusals,
 * protocol violations and a bug close it.
 */
class ErrorTranslatorTableTest {
    private static final Sequence SEQUENCE = new Sequence("orders", "id", "s0");

    static Stream<Arguments> everyExceptionType() {
        return Stream.of(
                row("catalog: a refused statement", ErrorCode.UNSUPPORTED.exception("x"), 1235, "42000", false),
                row("catalog: a planning error", ErrorCode.NO_DATABASE_SELECTED.exception(), 1046, "3D000", false),
                row("catalog: a lost backend", ErrorCode.BACKEND_LOST.exception("s0", "primary"), 1927, "HY000", false),
                row("catalog: an unreachable backend", ErrorCode.BACKEND_UNAVAILABLE.exception("s0", "primary", "h:1", "refused")
                        .withCause(new ConnectException("refused")), 1429, "HY000", false),
                row("catalog: a pool timeout", ErrorCode.BACKEND_POOL_TIMEOUT.exception(5, "s0", "primary", "h:1", 2, 2, "none"), 1429, "HY000", false),
                row("catalog: wrong arguments", ErrorCode.WRONG_ARGUMENTS.exception("mysqld_stmt_execute"), 1210, "HY000", false),
                row("catalog: a wrong password", ErrorCode.ACCESS_DENIED.exception("u", "h", "YES"), 1045, "28000", true),
                row("catalog: a bad handshake", ErrorCode.HANDSHAKE_ERROR.exception("x"), 1043, "08S01", true),
                row("catalog: packets out of order", ErrorCode.PACKETS_OUT_OF_ORDER.exception(), 1156, "08S01", true),
                row("catalog: a malformed packet", ErrorCode.MALFORMED_PACKET.exception("x"), 1835, "HY000", true),
                row("a global sequence", new SequenceAllocationException(SEQUENCE, "cannot reserve a block of 5 values",
                        new SQLException("Connection refused")), 4135, "HY000", false),
                row("an XA step", new XaException("XA decision log on shard s0: read", null), 1401, "XAE03", false),
                row("an XA commit left prepared", new XaException("cannot log its commit", null, true), 1927, "HY000", false),
                row("a backend's ERR", new BackendErrorException(new ErrPacket(1062, "23000", "Duplicate entry '1' for key 'PRIMARY'")),
                        1062, "23000", false),
                row("a control-plane server error", new SQLException("Table 'x.y' doesn't exist", "42S02", 1146), 1146, "42S02", false),
                row("text the client's charset cannot carry", ClientCharset.UnmappableTextException.invalid(ClientCharset.UTF8MB4),
                        1235, "42000", false),
                row("an oversized packet", oversizedPacket(), 1153, "08S01", true),
                row("a malformed packet", new MalformedPacketException("short"), 1835, "HY000", true),
                row("a corrupt compressed frame", new CompressedFrameException("corrupt"), 1835, "HY000", true),
                row("a frame too long", new TooLongFrameException("long"), 1835, "HY000", true),
                row("Netty's plain decoder failure", new DecoderException("odd"), 1835, "HY000", true),
                row("a wrapped XA step", new CompletionException(new ExecutionException(new XaException("start", null))),
                        1401, "XAE03", false),
                row("a driver's own error", new SQLException("Socket fail", "08000", 0), 1105, "HY000", true),
                row("a bug", new IllegalStateException("bug"), 1105, "HY000", true),
                row("a missing class", new NoClassDefFoundError("x/Y"), 1105, "HY000", true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyExceptionType")
    void translates(String what, Throwable error, int errno, String sqlState, boolean closes) {
        ErrorTranslator.Translation translation = new ErrorTranslator().translate(error);

        assertThat(translation.packet().errno()).as("errno of %s", what).isEqualTo(errno);
        assertThat(translation.packet().sqlState()).as("SQLSTATE of %s", what).isEqualTo(sqlState);
        assertThat(translation.packet().message()).as("message of %s", what).isNotBlank();
        assertThat(translation.closeConnection()).as("closes after %s", what).isEqualTo(closes);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyExceptionType")
    void onlyTheCatalogsClosingEntriesClose(String what, Throwable error, int errno, String sqlState, boolean closes) {
        ErrorTranslator.Translation translation = new ErrorTranslator().translate(error);
        boolean catalogCloses = false;
        for (ErrorCode code : ErrorCode.values()) {
            if (code.errno() == errno && code.sqlState().equals(sqlState) && ErrorTranslator.closesConnection(code)) {
                catalogCloses = true;
            }
        }
        assertThat(translation.closeConnection()).as("%s closes only as a closing catalog entry", what).isEqualTo(catalogCloses);
    }

    private static Arguments row(String what, Throwable error, int errno, String sqlState, boolean closes) {
        return Arguments.of(what, error, errno, sqlState, closes);
    }

    /** The decoder's own exception, as it raises it for a packet over the limit. */
    private static Throwable oversizedPacket() {
        EmbeddedChannel channel = new EmbeddedChannel(new PacketDecoder(16));
        Throwable thrown = catchThrowable(() -> channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {100, 0, 0, 0})));
        assertThat(thrown).isInstanceOf(PacketDecoder.PacketTooLargeException.class);
        assertFalse(channel.finish());
        return thrown;
    }
}
