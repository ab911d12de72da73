package io.shardgate.proxy.backend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.EventLoopGroup;
import io.shardgate.errors.ShardgateException;
import io.shardgate.proxy.config.HostPort;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.HandshakeV10;
import io.shardgate.proxy.transport.Transport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The connector against a scripted server on loopback: a connection the server drops before
 * answering the login is tried again; what the server answered is final.
 */
class BackendConnectorTest {
    private static final long SERVER_CAPABILITIES = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SECURE_CONNECTION
            | Capabilities.CLIENT_PLUGIN_AUTH | Capabilities.CLIENT_LONG_PASSWORD;

    private final EventLoopGroup group = Transport.best().newGroup(1, "connector-test");
    private final List<AutoCloseable> servers = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable server : servers) {
            server.close();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    @Test
    void aConnectionDroppedBeforeTheLoginIsTriedAgain() throws Exception {
        AtomicInteger accepted = new AtomicInteger();
        int port = server(socket -> {
            if (accepted.incrementAndGet() == 1) {
                socket.setSoLinger(true, 0); // a reset, as an overloaded server's
                return;
            }
            loginOk(socket);
        });
        BackendConnection connection = connect(port, Duration.ofSeconds(5)).get(5, TimeUnit.SECONDS);
        try {
            assertThat(connection.channel().isActive()).isTrue();
            assertThat(accepted).hasValue(2);
        } finally {
            connection.close();
        }
    }

    @Test
    void aRefusedLoginIsNotTriedAgain() throws Exception {
        AtomicInteger accepted = new AtomicInteger();
        int port = server(socket -> {
            accepted.incrementAndGet();
            // ERR 1040 before the handshake, as a server at max_connections answers.
            byte[] message = "Too many connections".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            ByteBuf payload = ByteBufAllocator.DEFAULT.heapBuffer();
            payload.writeByte(0xFF).writeShortLE(1040).writeBytes(message);
            writePacket(socket.getOutputStream(), 0, payload);
            socket.getInputStream().read();
        });
        assertThatThrownBy(() -> connect(port, Duration.ofSeconds(5)).get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(ShardgateException.class).hasMessageContaining("Too many connections");
        assertThat(accepted).hasValue(1);
    }

    @Test
    void aServerThatIsNotThereFailsAfterEveryAttemptWithinTheTimeout() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        long start = System.nanoTime();
        assertThatThrownBy(() -> connect(port, Duration.ofSeconds(2)).get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(ShardgateException.class).hasMessageContaining("cannot connect");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
    }

    private CompletableFuture<BackendConnection> connect(int port, Duration timeout) {
        BackendConnector connector = new BackendConnector(Transport.best(), "u", "p", timeout, false, 8);
        return connector.connect(group.next(), new BackendTarget("s0", "primary", new HostPort("127.0.0.1", port)), 0, "");
    }

    private interface Script {
        void serve(Socket socket) throws IOException;
    }

    /** A server on a free loopback port that runs {@code script} on each connection, one after another. */
    private int server(Script script) throws IOException {
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        servers.add(server);
        Thread thread = new Thread(() -> {
            while (!server.isClosed()) {
                try (Socket socket = server.accept()) {
                    script.serve(socket);
                } catch (IOException e) {
                    // closed by the test, or the client went away
                }
            }
        }, "scripted-backend");
        thread.setDaemon(true);
        thread.start();
        return server.getLocalPort();
    }

    private static void loginOk(Socket socket) throws IOException {
        byte[] scramble = new byte[20];
        java.util.Arrays.fill(scramble, (byte) 'a');
        OutputStream out = socket.getOutputStream();
        writePacket(out, 0, new HandshakeV10("10.11.0-test", 7, scramble, SERVER_CAPABILITIES, 45, 2,
                "mysql_native_password").encode(ByteBufAllocator.DEFAULT));
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] header = new byte[4];
        in.readFully(header);
        int length = (header[0] & 0xFF) | (header[1] & 0xFF) << 8 | (header[2] & 0xFF) << 16;
        in.readFully(new byte[length]);
        ByteBuf ok = ByteBufAllocator.DEFAULT.heapBuffer();
        ok.writeByte(0).writeByte(0).writeByte(0).writeShortLE(2).writeShortLE(0);
        writePacket(out, 2, ok);
        in.read(); // holds the connection open until the client closes it
    }

    private static void writePacket(OutputStream out, int sequence, ByteBuf payload) throws IOException {
        try {
            int length = payload.readableBytes();
            out.write(new byte[] {(byte) length, (byte) (length >> 8), (byte) (length >> 16), (byte) sequence});
            byte[] bytes = new byte[length];
            payload.readBytes(bytes);
            out.write(bytes);
            out.flush();
        } finally {
            payload.release();
        }
    }
}
