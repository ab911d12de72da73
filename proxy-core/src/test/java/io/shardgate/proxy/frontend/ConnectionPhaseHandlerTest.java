package io.shardgate.proxy.frontend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import io.shardgate.proxy.auth.CachingSha2Password;
import io.shardgate.proxy.auth.NativePassword;
import io.shardgate.proxy.auth.RsaKeyPair;
import io.shardgate.proxy.config.UserConfig;
import io.shardgate.proxy.protocol.AuthSwitchRequest;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.HandshakeResponse41;
import io.shardgate.proxy.protocol.HandshakeV10;
import io.shardgate.proxy.protocol.MySqlPacket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The connection phase without a socket and without a backend: a client logs in by each of the
 * supported ways, or is refused, and on the OK the handler hands over to the command phase (here a
 * hand-written {@link FakeCommandPhase}) and leaves the pipeline.
 */
class ConnectionPhaseHandlerTest {
    private static final long CLIENT = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SECURE_CONNECTION
            | Capabilities.CLIENT_PLUGIN_AUTH | Capabilities.CLIENT_DEPRECATE_EOF | Capabilities.CLIENT_TRANSACTIONS;
    private static RsaKeyPair rsa;

    private final FakeCommandPhase phase = new FakeCommandPhase();
    private ConnectionRegistry registry;
    private EmbeddedChannel channel;
    private byte[] nonce;

    @BeforeAll
    static void keys() {
        rsa = RsaKeyPair.generate(new SecureRandom());
    }

    @AfterEach
    void finish() {
        if (channel != null) {
            channel.finishAndReleaseAll();
        }
    }

    /** Connects with room for {@code maxConnections}: the greeting is read and its nonce kept. */
    private void connect(int maxConnections) {
        channel = new EmbeddedChannel(new ConnectionPhaseHandler(context(maxConnections), phase));
        MySqlPacket greeting = channel.readOutbound();
        assertThat(greeting.sequenceId()).isZero();
        nonce = HandshakeV10.decode(greeting.payload()).scramble();
        greeting.release();
    }

    private FrontendContext context(int maxConnections) {
        TestFrontend frontend = TestFrontend.create(rsa, maxConnections, Map.of(
                "app", UserConfig.withPassword("app", "app", false, UserConfig.NATIVE),
                "sha", UserConfig.withPassword("sha", "secret", false, UserConfig.CACHING_SHA2),
                "hashed", UserConfig.withNativeHash("hashed", "*" + "00".repeat(20), false, UserConfig.CACHING_SHA2)));
        registry = frontend.registry();
        return frontend.context();
    }

    private void respond(String user, String plugin, byte[] authResponse, String database) {
        long capabilities = database.isEmpty() ? CLIENT : CLIENT | Capabilities.CLIENT_CONNECT_WITH_DB;
        HandshakeResponse41 response = new HandshakeResponse41(capabilities, 1 << 24, 45, user, authResponse, database, plugin,
                Map.of(), 0);
        channel.writeInbound(new MySqlPacket(1, response.encode(ByteBufAllocator.DEFAULT)));
    }

    private void send(int sequence, byte[] data) {
        channel.writeInbound(new MySqlPacket(sequence, Unpooled.wrappedBuffer(data)));
    }

    private MySqlPacket next() {
        MySqlPacket packet = channel.readOutbound();
        assertThat(packet).as("an answer").isNotNull();
        return packet;
    }

    private void expectOk(int sequence) {
        MySqlPacket ok = next();
        try {
            assertThat(ok.header()).as("OK").isZero();
            assertThat(ok.sequenceId()).isEqualTo(sequence);
        } finally {
            ok.release();
        }
    }

    private ErrPacket expectError(int sequence) {
        MySqlPacket packet = next();
        try {
            assertThat(packet.header()).as("ERR").isEqualTo(0xFF);
            assertThat(packet.sequenceId()).isEqualTo(sequence);
            return ErrPacket.decode(packet.payload());
        } finally {
            packet.release();
        }
    }

    /** An AuthMoreData packet: its status byte, or the data after it. */
    private byte[] expectMoreData(int sequence) {
        MySqlPacket packet = next();
        try {
            assertThat(packet.sequenceId()).isEqualTo(sequence);
            ByteBuf payload = packet.payload();
            assertThat(payload.readUnsignedByte()).as("AuthMoreData").isEqualTo((short) 0x01);
            byte[] data = new byte[payload.readableBytes()];
            payload.readBytes(data);
            return data;
        } finally {
            packet.release();
        }
    }

    private void assertHandedOver() {
        assertThat(channel.pipeline().get(ConnectionPhaseHandler.class)).as("the connection phase left").isNull();
        assertThat(channel.pipeline().get(ConnectionPhaseHandler.COMMANDS)).as("the command phase took over")
                .isSameAs(phase.commands);
        assertThat(phase.login).isNotNull();
        assertThat(registry.find(phase.login.connectionId())).as("the session is registered").isPresent();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void nativePasswordLogsInAndTheHandlerLeavesThePipeline() {
        connect(10);
        respond("app", NativePassword.PLUGIN_NAME, NativePassword.scramble(bytes("app"), nonce), "");
        expectOk(2);
        assertHandedOver();
        assertThat(phase.login.session().user()).isEqualTo("app");
        assertThat(phase.schemasOpened).as("no schema named, none checked").isEmpty();
        // What the client sends next goes to the command phase, untouched.
        send(0, new byte[] {0x0E});
        assertThat(phase.commands.received).hasSize(1);
        assertThat(phase.commands.received.get(0).sequenceId()).isZero();
        assertThat(registry.connections()).isEqualTo(1);
    }

    @Test
    void cachingSha2FastPathSendsFastAuthSuccessThenOk() {
        connect(10);
        respond("sha", CachingSha2Password.PLUGIN_NAME, CachingSha2Password.scramble(bytes("secret"), nonce), "");
        assertThat(expectMoreData(2)).containsExactly(CachingSha2Password.FAST_AUTH_SUCCESS);
        expectOk(3);
        assertHandedOver();
    }

    @Test
    void cachingSha2FullPathOverPlainTextUsesTheRsaKey() {
        connect(10);
        // No cached digest for this user: the fast path cannot succeed, whatever the scramble.
        respond("hashed", CachingSha2Password.PLUGIN_NAME, new byte[32], "");
        assertThat(expectMoreData(2)).containsExactly(CachingSha2Password.PERFORM_FULL_AUTHENTICATION);
        send(3, new byte[] {CachingSha2Password.REQUEST_PUBLIC_KEY});
        assertThat(new String(expectMoreData(4), StandardCharsets.US_ASCII)).isEqualTo(rsa.publicKeyPem());
        send(5, RsaKeyPair.encryptPassword(bytes("wrong"), nonce, rsa.publicKey()));
        assertThat(expectError(6).errno()).as("a wrong password, RSA-encrypted").isEqualTo(1045);
    }

    @Test
    void cachingSha2FullPathAcceptsTheRightPasswordOverRsa() {
        connect(10);
        respond("sha", CachingSha2Password.PLUGIN_NAME, CachingSha2Password.scramble(bytes("not it"), nonce), "");
        assertThat(expectMoreData(2)).containsExactly(CachingSha2Password.PERFORM_FULL_AUTHENTICATION);
        send(3, new byte[] {CachingSha2Password.REQUEST_PUBLIC_KEY});
        expectMoreData(4);
        send(5, RsaKeyPair.encryptPassword(bytes("secret"), nonce, rsa.publicKey()));
        expectOk(6);
        assertHandedOver();
    }

    @Test
    void aPlainPasswordWithoutTlsIsRefused() {
        connect(10);
        respond("sha", CachingSha2Password.PLUGIN_NAME, new byte[32], "");
        expectMoreData(2);
        send(3, bytes("secret\0"));
        assertThat(expectError(4).errno()).isEqualTo(1045);
        channel.runPendingTasks();
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void anAuthSwitchAsksForTheUsersPluginWithTheSameNonce() {
        connect(10);
        respond("sha", NativePassword.PLUGIN_NAME, NativePassword.scramble(bytes("secret"), nonce), "");
        MySqlPacket switchRequest = next();
        AuthSwitchRequest request;
        try {
            assertThat(switchRequest.sequenceId()).isEqualTo(2);
            request = AuthSwitchRequest.decode(switchRequest.payload());
        } finally {
            switchRequest.release();
        }
        assertThat(request.plugin()).isEqualTo(CachingSha2Password.PLUGIN_NAME);
        assertThat(request.data()).startsWith(nonce);
        send(3, CachingSha2Password.scramble(bytes("secret"), nonce));
        assertThat(expectMoreData(4)).containsExactly(CachingSha2Password.FAST_AUTH_SUCCESS);
        expectOk(5);
        assertHandedOver();
    }

    @Test
    void aWrongPasswordGets1045AndTheConnectionCloses() {
        connect(10);
        respond("app", NativePassword.PLUGIN_NAME, NativePassword.scramble(bytes("nope"), nonce), "");
        ErrPacket error = expectError(2);
        assertThat(error.errno()).isEqualTo(1045);
        assertThat(error.sqlState()).isEqualTo("28000");
        assertThat(error.message()).isEqualTo("Access denied for user 'app'@'localhost' (using password: YES)");
        channel.runPendingTasks();
        assertThat(channel.isOpen()).isFalse();
        assertThat(phase.login).as("nothing handed over").isNull();
        assertThat(registry.connections()).as("the slot is given back").isZero();
    }

    @Test
    void anUnknownUserIsAnsweredAsAWrongPassword() {
        connect(10);
        respond("nobody", NativePassword.PLUGIN_NAME, new byte[0], "");
        ErrPacket error = expectError(2);
        assertThat(error.message()).isEqualTo("Access denied for user 'nobody'@'localhost' (using password: NO)");
    }

    @Test
    void tooManyConnectionsGets1040AtSequenceZeroAndCloses() {
        connect(1);
        EmbeddedChannel second = new EmbeddedChannel(new ConnectionPhaseHandler(context(0), phase));
        MySqlPacket refused = second.readOutbound();
        try {
            assertThat(refused.sequenceId()).isZero();
            assertThat(refused.header()).isEqualTo(0xFF);
            assertThat(ErrPacket.decode(refused.payload()).errno()).isEqualTo(1040);
        } finally {
            refused.release();
        }
        second.runPendingTasks();
        assertThat(second.isOpen()).isFalse();
        second.finishAndReleaseAll();
    }

    @Test
    void aSchemaIsOpenedBeforeTheOkAndPacketsMeanwhileReachTheCommandPhase() {
        connect(10);
        CompletableFuture<Void> opening = new CompletableFuture<>();
        phase.schemaResult = opening;
        respond("app", NativePassword.PLUGIN_NAME, NativePassword.scramble(bytes("app"), nonce), "shop");
        assertThat((Object) channel.readOutbound()).as("no OK before the schema is open").isNull();
        assertThat(phase.schemasOpened).containsExactly("shop");
        send(0, new byte[] {0x0E}); // pipelined
        opening.complete(null);
        expectOk(2);
        assertHandedOver();
        assertThat(phase.commands.received).as("the pipelined command").hasSize(1);
    }

    @Test
    void anUnknownSchemaIsAnErrorAndTheSessionIsGivenUp() {
        connect(10);
        phase.schemaResult = CompletableFuture.failedFuture(
                io.shardgate.errors.ErrorCode.UNKNOWN_COMMAND.exception());
        respond("app", NativePassword.PLUGIN_NAME, NativePassword.scramble(bytes("app"), nonce), "nowhere");
        assertThat(expectError(2).errno()).isEqualTo(1047);
        channel.runPendingTasks();
        assertThat(channel.isOpen()).isFalse();
        assertThat(phase.abandoned).as("the session was given up").hasSize(1);
        assertThat(registry.connections()).isZero();
    }

    @Test
    void aSecondSslRequestWithoutTlsOfferedIsABadHandshake() {
        connect(10);
        ByteBuf sslRequest = Unpooled.buffer(32).writeIntLE((int) (CLIENT | Capabilities.CLIENT_SSL))
                .writeIntLE(1 << 24).writeByte(45).writeZero(23);
        channel.writeInbound(new MySqlPacket(1, sslRequest));
        ErrPacket error = expectError(2);
        assertThat(error.errno()).isEqualTo(1043);
        assertThat(error.message()).contains("TLS was requested but is not offered");
    }

    @Test
    void afterTheOkTheCommandPhaseRefusesAPacketWithAWrongSequenceId() {
        FrontendContext context = context(10);
        channel = new EmbeddedChannel(new ConnectionPhaseHandler(context, new RoutedCommandPhase(context)));
        MySqlPacket greeting = channel.readOutbound();
        nonce = HandshakeV10.decode(greeting.payload()).scramble();
        greeting.release();
        respond("app", NativePassword.PLUGIN_NAME, NativePassword.scramble(bytes("app"), nonce), "");
        expectOk(2);
        assertThat(channel.pipeline().get(ConnectionPhaseHandler.class)).isNull();
        assertThat(channel.pipeline().get(ConnectionPhaseHandler.COMMANDS)).isInstanceOf(FrontendHandler.class);
        send(4, new byte[] {0x0E}); // a command must start at sequence id 0
        ErrPacket error = expectError(5);
        assertThat(error.errno()).isEqualTo(1156);
        channel.runPendingTasks();
        assertThat(channel.isOpen()).isFalse();
        assertThat(registry.connections()).as("the command phase gave the slot back").isZero();
    }

    /** The command phase as the connection phase sees it: what it was asked, and a handler that keeps what it receives. */
    private static final class FakeCommandPhase implements CommandPhase {
        final List<String> schemasOpened = new ArrayList<>();
        final List<ClientSession> abandoned = new ArrayList<>();
        final RecordingHandler commands = new RecordingHandler();
        CompletableFuture<Void> schemaResult = CompletableFuture.completedFuture(null);
        Login login;

        @Override
        public CompletableFuture<Void> openSchema(ClientSession session, EventLoop loop) {
            schemasOpened.add(session.schema());
            return schemaResult;
        }

        @Override
        public void abandon(ClientSession session) {
            abandoned.add(session);
        }

        @Override
        public ChannelHandler commands(Login login) {
            this.login = login;
            return commands;
        }
    }

    private static final class RecordingHandler extends ChannelInboundHandlerAdapter {
        final List<MySqlPacket> received = new ArrayList<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            MySqlPacket packet = (MySqlPacket) msg;
            received.add(packet);
            packet.release();
        }
    }
}
