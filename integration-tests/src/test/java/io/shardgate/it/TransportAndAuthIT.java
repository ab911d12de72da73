package io.shardgate.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** TLS, protocol compression (zlib and zstd) and both authentication plugins, with real clients. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TransportAndAuthIT {
    private ProxyFixture proxy;

    @BeforeAll
    void start() throws Exception {
        String fullOnlyHash = "*" + HexFormat.of().withUpperCase().formatHex(sha1(sha1("full-secret")));
        proxy = ProxyFixture.withOwnShard(Map.of(), """
                users:
                  - { name: app, password: app }
                  - { name: fast, password: fast-secret, auth_plugin: caching_sha2_password }
                  - { name: full, password_hash: "%s", auth_plugin: caching_sha2_password }
                  - { name: secure, password: secure-secret, require_tls: true }
                """.formatted(fullOnlyHash),
                "CREATE DATABASE tr", "CREATE TABLE tr.t (id INT PRIMARY KEY, v VARCHAR(100))",
                "USE tr", "INSERT INTO tr.t SELECT seq, REPEAT(CHAR(65 + seq % 26), 80) FROM seq_1_to_5000");
    }

    @AfterAll
    void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void mariadbCliWithTlsAndCompression() throws Exception {
        Cli.Result tls = Cli.run(Cli.mariadb(proxy.port(), "--ssl", "--ssl-verify-server-cert=0"), "status\n", 30);
        assertThat(tls.status()).as(tls.stderr()).isZero();
        assertThat(tls.stdout()).containsPattern("SSL:\\s+Cipher in use is TLS_");
        Cli.Result compressed = Cli.run(Cli.mariadb(proxy.port(), "--compress"),
                "status\nSELECT COUNT(*), SUM(LENGTH(v)) FROM tr.t;\n", 30);
        assertThat(compressed.status()).as(compressed.stderr()).isZero();
        assertThat(compressed.stdout()).containsPattern("Protocol:\\s+Compressed").contains("5000\t400000");
        Cli.Result both = Cli.run(Cli.mariadb(proxy.port(), "--ssl", "--ssl-verify-server-cert=0", "--compress",
                "-e", "SELECT v FROM tr.t ORDER BY id"), null, 30);
        assertThat(both.status()).as(both.stderr()).isZero();
        assertThat(both.stdout().split("\n")).hasSize(5000);
    }

    @Test
    void connectorsWithTlsAndCompression() throws Exception {
        assertTableReadable(proxy.mariadb("tr", "sslMode=trust"));
        assertTableReadable(proxy.mariadb("tr", "useCompression=true"));
        assertTableReadable(proxy.mysql("tr", "sslMode=REQUIRED"));
        assertTableReadable(proxy.mysql("tr", "sslMode=DISABLED&useCompression=true"));
        assertTableReadable(proxy.mysql("tr", "sslMode=REQUIRED&useCompression=true&useServerPrepStmts=true"));
        // Connector/J sends its TLS ClientHello right behind the SSLRequest; that once raced the TLS setup.
        for (int i = 0; i < 10; i++) {
            assertTableReadable(proxy.mysql("tr", "sslMode=REQUIRED"));
        }
    }

    @Test
    void cachingSha2FastPath() throws Exception {
        assertTableReadable(DriverManager.getConnection(proxy.mysqlUrl("tr", "sslMode=DISABLED"), "fast", "fast-secret"));
        // MariaDB Connector/J starts with mysql_native_password and follows the auth switch.
        assertTableReadable(DriverManager.getConnection(proxy.mariadbUrl("tr", ""), "fast", "fast-secret"));
    }

    @Test
    void cachingSha2FullPathOverTls() throws Exception {
        assertTableReadable(DriverManager.getConnection(proxy.mysqlUrl("tr", "sslMode=REQUIRED"), "full", "full-secret"));
        assertTableReadable(DriverManager.getConnection(proxy.mariadbUrl("tr", "sslMode=trust"), "full", "full-secret"));
        assertThatThrownBy(() -> DriverManager.getConnection(proxy.mysqlUrl("tr", "sslMode=REQUIRED"), "full", "wrong"))
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1045));
    }

    @Test
    void cachingSha2FullPathWithRsaKeyRetrieval() throws Exception {
        assertTableReadable(DriverManager.getConnection(
                proxy.mysqlUrl("tr", "sslMode=DISABLED&allowPublicKeyRetrieval=true"), "full", "full-secret"));
        assertTableReadable(DriverManager.getConnection(
                proxy.mariadbUrl("tr", "allowPublicKeyRetrieval=true"), "full", "full-secret"));
        assertThatThrownBy(() -> DriverManager.getConnection(
                proxy.mysqlUrl("tr", "sslMode=DISABLED&allowPublicKeyRetrieval=true"), "full", "wrong"))
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1045));
    }

    @Test
    void requireTlsRefusesPlainConnections() throws Exception {
        assertThatThrownBy(() -> DriverManager.getConnection(proxy.mariadbUrl("tr", ""), "secure", "secure-secret"))
                .isInstanceOfSatisfying(SQLException.class, e -> {
                    assertThat(e.getErrorCode()).isEqualTo(3159);
                    assertThat(e.getMessage()).contains("insecure transport");
                });
        assertTableReadable(DriverManager.getConnection(proxy.mariadbUrl("tr", "sslMode=trust"), "secure", "secure-secret"));
    }

    @Test
    void independentZstdClient() throws Exception {
        // Many rows per compressed frame, a level from the handshake, and small frames sent uncompressed.
        Cli.Result rows = zstd(List.of("--level", "7", "--query", "SELECT id, v FROM tr.t ORDER BY id",
                "--query", "SELECT 1"));
        assertThat(rows.status()).as(rows.stderr()).isZero();
        String[] lines = rows.stdout().split("\n");
        assertThat(lines).hasSize(5001);
        assertThat(lines[0]).isEqualTo("1\t" + "B".repeat(80));
        assertThat(lines[5000]).isEqualTo("1");

        // A query packet spanning many frames, and a large row coming back.
        Path big = Files.createTempFile("zstd-query", ".sql");
        try {
            Files.writeString(big, "SELECT LENGTH('" + "q".repeat(300_000) + "'), REPEAT('z', 200000) = REPEAT('z', 200000)");
            Cli.Result spanning = zstd(List.of("--split-frames", "4096", "--query-file", big.toString()));
            assertThat(spanning.status()).as(spanning.stderr()).isZero();
            assertThat(spanning.stdout()).isEqualTo("300000\t1\n");
        } finally {
            Files.deleteIfExists(big);
        }

        Cli.Result tiny = zstd(List.of("--split-frames", "7", "--query", "SELECT 42"));
        assertThat(tiny.stdout()).isEqualTo("42\n");

        Cli.Result error = zstd(List.of("--query", "SELECT * FROM tr.missing"));
        assertThat(error.status()).isNotZero();
        assertThat(error.stdout() + error.stderr()).contains("1146");
    }

    private Cli.Result zstd(List<String> args) throws Exception {
        Path script = Path.of(getClass().getResource("/zstd_client.py").toURI());
        List<String> command = new ArrayList<>(List.of("/usr/bin/python3", script.toString(),
                "--host", "127.0.0.1", "--port", Integer.toString(proxy.port()), "--user", "app", "--password", "app"));
        command.addAll(args);
        return Cli.run(command, null, 60);
    }

    private static void assertTableReadable(Connection connection) throws SQLException {
        try (Connection c = connection; ResultSet rows = c.createStatement()
                .executeQuery("SELECT COUNT(*), SUM(LENGTH(v)), MAX(v) FROM tr.t")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getLong(1)).isEqualTo(5000);
            assertThat(rows.getLong(2)).isEqualTo(400_000);
            assertThat(rows.getString(3)).isEqualTo("Z".repeat(80));
        }
    }

    private static byte[] sha1(String text) throws Exception {
        return sha1(text.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] sha1(byte[] bytes) throws Exception {
        return MessageDigest.getInstance("SHA-1").digest(bytes);
    }
}
