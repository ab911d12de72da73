package io.shardgate.proxy.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.shardgate.proxy.config.HostPort;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.ServerStatus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A sink that pauses reading for a slow client (autoRead off) must not leave the connection
 * paused once its response is complete: the session then hands the connection back to the pool,
 * and the next command on it (issue 16: often another client's) would be answered by the server
 * but never read.
 */
class BackendConnectionBackpressureTest {
    private static final long CAPABILITIES = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_DEPRECATE_EOF;

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final BackendConnection connection = new BackendConnection(channel,
            new BackendTarget("s0", "primary", new HostPort("127.0.0.1", 1)), CAPABILITIES, 0, 7, "", 4);

    @AfterEach
    void close() {
        Object written;
        while ((written = channel.readOutbound()) != null) {
            io.netty.util.ReferenceCountUtil.release(written);
        }
        channel.finishAndReleaseAll();
    }

    @Test
    void aResponseThatEndsWhilePausedLeavesTheConnectionReading() {
        PausingSink sink = new PausingSink();
        connection.execute(MySqlPacket.command(Command.QUERY, "SELECT b FROM big"), Command.QUERY, sink);

        channel.writeInbound(packet(1, 0x01)); // one column
        channel.writeInbound(packet(2, 0x03, 'd', 'e', 'f')); // its definition (not parsed by the tracker)
        assertThat(channel.config().isAutoRead()).as("paused by the sink mid-response").isFalse();
        channel.writeInbound(packet(3, 0x01, 'x')); // a row
        channel.writeInbound(okTerminator(4));

        assertThat(sink.completed).isTrue();
        assertThat(connection.isBusy()).isFalse();
        assertThat(channel.config().isAutoRead()).as("reading again once the response is complete").isTrue();
    }

    @Test
    void aPauseMidResponseIsLeftToTheSink() {
        PausingSink sink = new PausingSink();
        connection.execute(MySqlPacket.command(Command.QUERY, "SELECT b FROM big"), Command.QUERY, sink);
        channel.writeInbound(packet(1, 0x01));
        channel.writeInbound(packet(2, 0x03, 'd', 'e', 'f'));
        channel.writeInbound(packet(3, 0x01, 'x'));

        assertThat(sink.completed).isFalse();
        assertThat(channel.config().isAutoRead()).as("still paused: more rows may follow").isFalse();
    }

    private static MySqlPacket packet(int sequence, int... bytes) {
        byte[] payload = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            payload[i] = (byte) bytes[i];
        }
        return new MySqlPacket(sequence, Unpooled.wrappedBuffer(payload));
    }

    /** The OK packet (header 0xFE) that ends a result set with CLIENT_DEPRECATE_EOF. */
    private static MySqlPacket okTerminator(int sequence) {
        return packet(sequence, 0xFE, 0x00, 0x00, ServerStatus.AUTOCOMMIT, 0x00, 0x00, 0x00);
    }

    /** Pauses the connection on every packet, as a relay to a client that cannot keep up does. */
    private final class PausingSink implements ResponseSink {
        final List<Integer> sequences = new ArrayList<>();
        boolean completed;

        @Override
        public void packet(MySqlPacket packet) {
            sequences.add(packet.sequenceId());
            packet.release();
            connection.autoRead(false);
        }

        @Override
        public void flush() {
        }

        @Override
        public void complete(int status, boolean error) {
            completed = true;
        }

        @Override
        public void failed(Throwable cause) {
            throw new AssertionError(cause);
        }
    }
}
