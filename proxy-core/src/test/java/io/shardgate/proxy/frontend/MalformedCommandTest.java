package io.shardgate.proxy.frontend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.shardgate.proxy.auth.NativePassword;
import io.shardgate.proxy.auth.RsaKeyPair;
import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.HandshakeResponse41;
import io.shardgate.proxy.protocol.HandshakeV10;
import io.shardgate.proxy.protocol.MySqlPacket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Malformed commands that the front end answers itself, without a socket and without a backend:
 * each gets its MySQL error (and a close where the protocol can no longer be followed), and no
 * backend connection is ever taken for it. The backend address is a closed port: a command that
 * reached for a backend would show up as an acquire in {@link BackendPool#inUse()} or an error
 * other than the expected one.
 */
class MalformedCommandTest {
    private static RsaKeyPair rsa;
    private BackendPool pool;
    private EmbeddedChannel channel;

    @BeforeAll
    static void keys() {
        rsa = RsaKeyPair.generate(new SecureRandom());
    }

    @BeforeEach
    void login() {
        TestFrontend frontend = TestFrontend.create(rsa, 10);
        pool = frontend.pool();
        FrontendContext context = frontend.context();
        channel = new EmbeddedChannel(new ConnectionPhaseHandler(context, new RoutedCommandPhase(context)));
        MySqlPacket greeting = channel.readOutbound();
        HandshakeV10 handshake = HandshakeV10.decode(greeting.payload());
        greeting.release();
        long capabilities = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SECURE_CONNECTION | Capabilities.CLIENT_PLUGIN_AUTH
                | Capabilities.CLIENT_DEPRECATE_EOF | Capabilities.CLIENT_TRANSACTIONS;
        HandshakeResponse41 response = new HandshakeResponse41(capabilities, 1 << 24, 45, "app",
                NativePassword.scramble("app".getBytes(StandardCharsets.UTF_8), handshake.scramble()), "",
                NativePassword.PLUGIN_NAME, Map.of(), 0);
        channel.writeInbound(new MySqlPacket(1, response.encode(ByteBufAllocator.DEFAULT)));
        MySqlPacket ok = channel.readOutbound();
        assertThat(ok.header()).as("login OK").isZero();
        ok.release();
    }

    @AfterEach
    void noBackendWasTaken() {
        assertThat(pool.inUse()).as("backend connections in use").isZero();
        assertThat(pool.open()).as("backend connections opened").isZero();
        channel.finishAndReleaseAll();
    }

    private void send(int sequence, int... bytes) {
        ByteBuf payload = Unpooled.buffer(bytes.length);
        for (int b : bytes) {
            payload.writeByte(b);
        }
        channel.writeInbound(new MySqlPacket(sequence, payload));
    }

    private ErrPacket error() {
        MySqlPacket packet = channel.readOutbound();
        assertThat(packet).as("an answer").isNotNull();
        try {
            assertThat(packet.header()).as("an ERR packet").isEqualTo(0xFF);
            return ErrPacket.decode(packet.payload());
        } finally {
            packet.release();
        }
    }

    private void stillServes() {
        send(0, 0x0E); // COM_PING
        MySqlPacket ok = channel.readOutbound();
        assertThat(ok.header()).as("the session still answers").isZero();
        ok.release();
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void aCommandThatDoesNotStartAtSequenceZeroIsRefusedAndCloses() {
        send(3, 0x03, 'S', 'E', 'L', 'E', 'C', 'T', ' ', '1');
        ErrPacket error = error();
        assertThat(error.errno()).isEqualTo(1156);
        assertThat(error.sqlState()).isEqualTo("08S01");
        channel.runPendingTasks();
        assertThat(channel.isOpen()).as("closed, as MariaDB closes").isFalse();
    }

    @Test
    void statementCommandsForUnknownStatementsGet1243AndTheSessionGoesOn() {
        send(0, 0x17, 9, 0, 0, 0, 0, 1, 0, 0, 0); // COM_STMT_EXECUTE 9
        assertThat(error().errno()).isEqualTo(1243);
        send(0, 0x1C, 9, 0, 0, 0, 1, 0, 0, 0); // COM_STMT_FETCH 9
        assertThat(error().errno()).isEqualTo(1243);
        send(0, 0x1A, 0xFF, 0xFF, 0xFF, 0xFF); // COM_STMT_RESET of "the last prepared": there is none
        assertThat(error().errno()).isEqualTo(1243);
        send(0, 0xFA, 9, 0, 0, 0, 0x80, 0); // COM_STMT_BULK_EXECUTE 9
        assertThat(error().errno()).isEqualTo(1243);
        send(0, 0x18, 9, 0, 0, 0, 0, 0, 'x'); // COM_STMT_SEND_LONG_DATA: never answered
        send(0, 0x19, 9, 0, 0, 0); // COM_STMT_CLOSE: never answered
        send(0, 0x19); // COM_STMT_CLOSE cut short: never answered
        assertThat((Object) channel.readOutbound()).as("no answer to long data or close").isNull();
        stillServes();
    }

    @Test
    void aStatementCommandWithoutAStatementIdIsMalformedAndCloses() {
        send(0, 0x17, 1, 0);
        ErrPacket error = error();
        assertThat(error.errno()).isEqualTo(1835);
        assertThat(error.message()).contains("COM_STMT_EXECUTE without a statement id");
        channel.runPendingTasks();
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void emptyAndUnknownCommandsGet1047() {
        send(0);
        assertThat(error().errno()).isEqualTo(1047);
        send(0, 0x12, 0, 0, 0, 0); // COM_BINLOG_DUMP
        assertThat(error().errno()).isEqualTo(1047);
        stillServes();
    }

    @Test
    void queuedMalformedCommandsAreAnsweredInOrder() {
        // Pipelined: the second and third wait for the first; each still gets its own answer.
        send(0, 0x17, 9, 0, 0, 0, 0, 1, 0, 0, 0);
        send(0, 0x1C, 7, 0, 0, 0, 1, 0, 0, 0);
        send(0, 0x0E);
        assertThat(error().errno()).isEqualTo(1243);
        assertThat(error().errno()).isEqualTo(1243);
        MySqlPacket ok = channel.readOutbound();
        assertThat(ok.header()).isZero();
        ok.release();
    }
}
