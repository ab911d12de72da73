package io.shardgate.proxy.auth;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.SslHandler;
import io.shardgate.proxy.auth.SelfSignedCertificate.KeyType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPrivateCrtKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Real TLS handshakes in memory: a Netty server {@link SslHandler} from {@link TlsMaterial} and a
 * JDK client {@link SSLEngine} that trusts only the server's certificate, each in an
 * {@link EmbeddedChannel}, with the test carrying the bytes between them.
 */
class TlsMaterialTest {
    private static final SelfSignedCertificate RSA = SelfSignedCertificate.generate(KeyType.RSA_2048, new SecureRandom(), Instant.now());
    private static final SelfSignedCertificate EC = SelfSignedCertificate.generate(KeyType.EC_P256, new SecureRandom(), Instant.now());

    @ParameterizedTest
    @CsvSource({
            "RSA_2048, TLSv1.3, localhost",
            "RSA_2048, TLSv1.2, localhost",
            "EC_P256,  TLSv1.3, localhost",
            "EC_P256,  TLSv1.2, 127.0.0.1",
            "RSA_2048, TLSv1.2, 127.0.0.1",
    })
    void handshakeWithSelfSignedCertificate(KeyType keyType, String protocol, String host) throws Exception {
        SelfSignedCertificate certificate = keyType == KeyType.RSA_2048 ? RSA : EC;
        Connection connection = handshake(TlsMaterial.selfSigned(certificate), certificate.certificate(), protocol, host);
        assertThat(connection.failure()).isNull();
        assertThat(connection.serverEngine().getSession().getProtocol()).isEqualTo(protocol);
        assertThat(connection.clientEngine().getSession().getPeerCertificates()).containsExactly(certificate.certificate());
        assertThat(connection.exchange("SELECT 1")).isEqualTo("SELECT 1");
        connection.close();
    }

    @Test
    void hostNameOutsideTheSanIsRejectedByTheClient() throws Exception {
        Connection connection = handshake(TlsMaterial.selfSigned(RSA), RSA.certificate(), "TLSv1.3", "db.example.com");
        assertThat(connection.failure()).hasStackTraceContaining("No subject alternative DNS name matching db.example.com");
        connection.close();
    }

    @Test
    void serverEnablesOnlyTls13And12() throws Exception {
        SSLEngine engine = TlsMaterial.selfSigned(RSA).serverContext().newEngine(ByteBufAllocator.DEFAULT);
        assertThat(engine.getEnabledProtocols()).containsExactlyInAnyOrder("TLSv1.3", "TLSv1.2");
        assertThat(engine.getUseClientMode()).isFalse();
        assertThat(engine.getNeedClientAuth()).isFalse();
    }

    /**
     * A JDK client cannot even offer TLSv1.1 (the JDK's {@code jdk.tls.disabledAlgorithms} stops it
     * before anything is sent), so the test hands the server a ClientHello of its own. TLSv1.2 in
     * the same hello gets a ServerHello, which shows the hello is well formed and that the version
     * alone makes the difference. (The JDK's default disables TLSv1.1 on the server too; the
     * enabled-protocols test above is what pins the server's own configuration.)
     */
    @ParameterizedTest
    @CsvSource({"0x0302, TLSv1.1", "0x0301, TLSv1"})
    void olderProtocolsAreRefusedOnTheWire(String version, String name) throws Exception {
        List<byte[]> records = sendClientHello(Integer.decode(version));
        assertThat(records).as(name).isNotEmpty();
        byte[] alert = records.get(0);
        assertThat(alert[0]).as("content type alert").isEqualTo((byte) 21);
        assertThat(alert[5]).as("level fatal").isEqualTo((byte) 2);
        assertThat(alert[6]).as("protocol_version").isEqualTo((byte) 70);
    }

    @Test
    void handMadeTls12HelloGetsAServerHello() throws Exception {
        List<byte[]> records = sendClientHello(0x0303);
        assertThat(records).isNotEmpty();
        byte[] first = records.get(0);
        assertThat(first[0]).as("content type handshake").isEqualTo((byte) 22);
        assertThat(first[5]).as("ServerHello").isEqualTo((byte) 2);
        assertThat(new byte[] {first[9], first[10]}).as("server_version").containsExactly(3, 3);
    }

    @Test
    void pkcs8FilesFromSelfSignedCertificate(@TempDir Path dir) throws Exception {
        Path cert = Files.writeString(dir.resolve("server.crt"), EC.certificatePem());
        Path key = Files.writeString(dir.resolve("server.key"), EC.privateKeyPem());
        TlsMaterial material = TlsMaterial.fromPemFiles(cert, key);
        assertThat(material.certificateChain()).containsExactly(EC.certificate());
        Connection connection = handshake(material, EC.certificate(), "TLSv1.3", "localhost");
        assertThat(connection.failure()).isNull();
        assertThat(connection.exchange("ping")).isEqualTo("ping");
        connection.close();
    }

    @Test
    void pkcs1RsaKeyIsAccepted(@TempDir Path dir) throws Exception {
        Path cert = Files.writeString(dir.resolve("server.crt"), RSA.certificatePem());
        Path key = Files.writeString(dir.resolve("server.key"), Pem.encode("RSA PRIVATE KEY", pkcs1((RSAPrivateCrtKey) RSA.privateKey())));
        assertThat(Files.readString(key)).startsWith("-----BEGIN RSA PRIVATE KEY-----\n");
        Connection connection = handshake(TlsMaterial.fromPemFiles(cert, key), RSA.certificate(), "TLSv1.2", "localhost");
        assertThat(connection.failure()).isNull();
        assertThat(connection.exchange("pong")).isEqualTo("pong");
        connection.close();
    }

    @Test
    void textAroundTheBlocksIsIgnored(@TempDir Path dir) throws Exception {
        Path cert = Files.write(dir.resolve("bundle.pem"), ("Bag Attributes\n    friendlyName: pr\u00fcfung\nsubject=CN = \u00e9\n"
                + RSA.certificatePem()).getBytes(StandardCharsets.UTF_8));
        Path key = Files.writeString(dir.resolve("server.key"), "Key Attributes: <No Attributes>\r\n" + RSA.privateKeyPem().replace("\n", "\r\n"));
        assertThat(TlsMaterial.fromPemFiles(cert, key).certificateChain()).containsExactly(RSA.certificate());
    }

    @Test
    void chainWithSeveralCertificatesKeepsItsOrder() {
        TlsMaterial material = TlsMaterial.fromPem(RSA.certificatePem() + "junk between blocks\n" + EC.certificatePem(), RSA.privateKeyPem());
        assertThat(material.certificateChain()).containsExactly(RSA.certificate(), EC.certificate());
    }

    @Test
    void keyOfAnotherCertificateIsRefused() {
        SelfSignedCertificate other = SelfSignedCertificate.generate(KeyType.RSA_2048, new SecureRandom(), Instant.now());
        assertThatThrownBy(() -> TlsMaterial.fromPem(RSA.certificatePem(), other.privateKeyPem()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the private key does not belong to the certificate CN=Shardgate auto-generated");
        assertThatThrownBy(() -> TlsMaterial.fromPem(RSA.certificatePem(), EC.privateKeyPem()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot read the RSA private key");
    }

    @Test
    void unsupportedOrMissingPemIsRefusedWithAHint(@TempDir Path dir) throws Exception {
        assertThatThrownBy(() -> TlsMaterial.fromPem(RSA.certificatePem(), Pem.encode("ENCRYPTED PRIVATE KEY", new byte[16])))
                .hasMessageContaining("unsupported key 'ENCRYPTED PRIVATE KEY'")
                .hasMessageContaining("openssl pkcs8 -topk8 -nocrypt");
        assertThatThrownBy(() -> TlsMaterial.fromPem(RSA.certificatePem(), Pem.encode("EC PRIVATE KEY", new byte[16])))
                .hasMessageContaining("unsupported key 'EC PRIVATE KEY'");
        assertThatThrownBy(() -> TlsMaterial.fromPem(RSA.certificatePem(), ""))
                .hasMessage("private key blocks: 0 (expected: 1)");
        assertThatThrownBy(() -> TlsMaterial.fromPem(RSA.privateKeyPem(), RSA.privateKeyPem()))
                .hasMessage("no -----BEGIN CERTIFICATE----- block");
        Path cert = Files.writeString(dir.resolve("server.crt"), RSA.certificatePem());
        Path key = Files.writeString(dir.resolve("server.key"), RSA.certificatePem());
        assertThatThrownBy(() -> TlsMaterial.fromPemFiles(cert, key))
                .hasMessage(cert + ", " + key + ": private key blocks: 0 (expected: 1)");
    }

    /** PKCS#1 RSAPrivateKey (RFC 8017 A.1.2), what {@code openssl rsa -traditional} writes. */
    private static byte[] pkcs1(RSAPrivateCrtKey key) {
        return Der.sequence(Der.integer(0), Der.integer(key.getModulus()), Der.integer(key.getPublicExponent()),
                Der.integer(key.getPrivateExponent()), Der.integer(key.getPrimeP()), Der.integer(key.getPrimeQ()),
                Der.integer(key.getPrimeExponentP()), Der.integer(key.getPrimeExponentQ()), Der.integer(key.getCrtCoefficient()));
    }

    private static Connection handshake(TlsMaterial material, X509Certificate trusted, String protocol, String host) throws Exception {
        SslHandler serverHandler = material.serverContext().newHandler(ByteBufAllocator.DEFAULT);
        SslHandler clientHandler = new SslHandler(clientEngine(trusted, protocol, host));
        Connection connection = new Connection(new EmbeddedChannel(clientHandler), clientHandler,
                new EmbeddedChannel(serverHandler), serverHandler);
        connection.pump();
        return connection;
    }

    /** Feeds one hand-made ClientHello to a server from {@link TlsMaterial}; returns the TLS records it answered with. */
    private static List<byte[]> sendClientHello(int version) throws Exception {
        SslHandler handler = TlsMaterial.selfSigned(RSA).serverContext().newHandler(ByteBufAllocator.DEFAULT);
        EmbeddedChannel server = new EmbeddedChannel(handler);
        try {
            server.writeInbound(Unpooled.wrappedBuffer(clientHello(version)));
        } catch (Exception e) {
            // the refused handshake surfaces here; the alert is still in the outbound queue
        }
        ByteBuf out = Unpooled.buffer();
        for (ByteBuf message = server.readOutbound(); message != null; message = server.readOutbound()) {
            out.writeBytes(message);
            message.release();
        }
        List<byte[]> records = new ArrayList<>();
        while (out.readableBytes() >= 5) {
            int length = out.getUnsignedShort(out.readerIndex() + 3);
            byte[] record = new byte[5 + length];
            out.readBytes(record);
            records.add(record);
        }
        out.release();
        server.finishAndReleaseAll();
        return records;
    }

    /**
     * A TLS ClientHello (RFC 5246 7.4.1.2) offering {@code version}, ECDHE-RSA/ECDSA suites in GCM
     * and CBC, and no supported_versions extension, so {@code version} is all the server can pick.
     */
    private static byte[] clientHello(int version) {
        ByteBuf body = Unpooled.buffer();
        body.writeShort(version);
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        body.writeBytes(random);
        body.writeByte(0);                                             // session id
        int[] suites = {0xC02F, 0xC02B, 0xC013, 0xC009};
        body.writeShort(2 * suites.length);
        for (int suite : suites) {
            body.writeShort(suite);
        }
        body.writeBytes(new byte[] {1, 0});                            // compression: null
        ByteBuf extensions = Unpooled.buffer();
        extensions.writeBytes(new byte[] {0x00, 0x0a, 0, 6, 0, 4, 0x00, 0x17, 0x00, 0x1d});       // supported_groups
        extensions.writeBytes(new byte[] {0x00, 0x0b, 0, 2, 1, 0});                               // ec_point_formats
        extensions.writeBytes(new byte[] {0x00, 0x0d, 0, 8, 0, 6, 0x08, 0x04, 0x04, 0x01, 0x04, 0x03}); // signature_algorithms
        extensions.writeBytes(new byte[] {(byte) 0xff, 0x01, 0, 1, 0});                           // renegotiation_info
        body.writeShort(extensions.readableBytes());
        body.writeBytes(extensions);
        extensions.release();

        ByteBuf record = Unpooled.buffer();
        record.writeByte(22);                                          // handshake
        record.writeShort(0x0301);
        record.writeShort(4 + body.readableBytes());
        record.writeByte(1);                                           // client_hello
        record.writeMedium(body.readableBytes());
        record.writeBytes(body);
        body.release();
        byte[] bytes = new byte[record.readableBytes()];
        record.readBytes(bytes);
        record.release();
        return bytes;
    }

    private static SSLEngine clientEngine(X509Certificate trusted, String protocol, String host) throws Exception {
        KeyStore trustStore = KeyStore.getInstance(KeyStore.getDefaultType());
        trustStore.load(null, null);
        trustStore.setCertificateEntry("server", trusted);
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trustStore);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), new SecureRandom());
        SSLEngine engine = context.createSSLEngine(host, 3307);
        engine.setUseClientMode(true);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setProtocols(new String[] {protocol});
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        engine.setSSLParameters(parameters);
        return engine;
    }

    private static final class Connection {
        private final EmbeddedChannel client;
        private final SslHandler clientHandler;
        private final EmbeddedChannel server;
        private final SslHandler serverHandler;
        private Throwable failure;

        Connection(EmbeddedChannel client, SslHandler clientHandler, EmbeddedChannel server, SslHandler serverHandler) {
            this.client = client;
            this.clientHandler = clientHandler;
            this.server = server;
            this.serverHandler = serverHandler;
        }

        /** Carries bytes both ways until neither side has anything to send. */
        void pump() {
            boolean moved = true;
            for (int round = 0; moved && round < 50; round++) {
                moved = move(client, server) | move(server, client);
            }
            Throwable clientFailure = clientHandler.handshakeFuture().cause();
            Throwable serverFailure = serverHandler.handshakeFuture().cause();
            if (failure == null) {
                failure = clientFailure != null ? clientFailure : serverFailure;
            }
            if (failure == null) {
                assertThat(clientHandler.handshakeFuture().isSuccess()).isTrue();
                assertThat(serverHandler.handshakeFuture().isSuccess()).isTrue();
            }
        }

        private boolean move(EmbeddedChannel from, EmbeddedChannel to) {
            boolean moved = false;
            for (Object message = from.readOutbound(); message != null; message = from.readOutbound()) {
                moved = true;
                try {
                    to.writeInbound(message);
                } catch (Exception e) {  // EmbeddedChannel rethrows checked exceptions too
                    if (failure == null) {
                        failure = e;
                    }
                }
            }
            return moved;
        }

        Throwable failure() {
            return failure;
        }

        SSLEngine clientEngine() {
            return clientHandler.engine();
        }

        SSLEngine serverEngine() {
            return serverHandler.engine();
        }

        /** Sends {@code text} from the client and returns what the server's application side read. */
        String exchange(String text) {
            client.writeOutbound(Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
            pump();
            ByteBuf received = server.readInbound();
            try {
                return received.toString(StandardCharsets.UTF_8);
            } finally {
                received.release();
            }
        }

        void close() {
            client.finishAndReleaseAll();
            server.finishAndReleaseAll();
        }
    }
}
