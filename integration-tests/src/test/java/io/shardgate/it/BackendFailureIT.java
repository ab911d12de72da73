package io.shardgate.it;

import io.shardgate.replication.topology.Node;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A backend that dies and comes back, and LOAD DATA LOCAL with and without allow_local_infile. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BackendFailureIT {
    private ProxyFixture proxy;
    private ProxyFixture withoutLocalInfile;

    @BeforeAll
    void start() {
        proxy = ProxyFixture.withOwnShard(Map.of(), "allow_local_infile: true\nlimits: { backend_connect_timeout_ms: 500 }\n",
                "CREATE DATABASE bf", "CREATE TABLE bf.l (id INT PRIMARY KEY, v VARCHAR(10))");
        withoutLocalInfile = ProxyFixture.start(proxy.topology(), "");
    }

    @AfterAll
    void stop() {
        if (withoutLocalInfile != null) {
            withoutLocalInfile.close();
        }
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    @Order(1)
    void loadDataLocalWhenAllowed() throws Exception {
        Path file = Files.createTempFile("local-infile", ".csv");
        try {
            Files.writeString(file, "1,one\n2,two\n3,three\n");
            Cli.Result load = Cli.run(Cli.mariadb(proxy.port(), "--local-infile=1", "-e",
                    "LOAD DATA LOCAL INFILE '" + file + "' INTO TABLE bf.l FIELDS TERMINATED BY ','; "
                            + "SELECT COUNT(*), GROUP_CONCAT(v ORDER BY id) FROM bf.l"), null, 30);
            assertThat(load.status()).as(load.stderr()).isZero();
            assertThat(load.stdout()).isEqualTo("3\tone,two,three\n");
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    @Order(2)
    void loadDataLocalRefusedByDefault() throws Exception {
        Path file = Files.createTempFile("local-infile", ".csv");
        try {
            Files.writeString(file, "9,nine\n");
            Cli.Result load = Cli.run(Cli.mariadb(withoutLocalInfile.port(), "--local-infile=1", "-e",
                    "LOAD DATA LOCAL INFILE '" + file + "' INTO TABLE bf.l FIELDS TERMINATED BY ','"), null, 30);
            assertThat(load.status()).isNotZero();
            assertThat(load.stderr()).contains("ERROR 4166").contains("local infile");
            Cli.Result after = Cli.run(Cli.mariadb(withoutLocalInfile.port(), "-e", "SELECT COUNT(*) FROM bf.l WHERE id = 9"),
                    null, 30);
            assertThat(after.stdout()).isEqualTo("0\n");
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    @Order(3)
    void deadBackendGetsAClearErrorAndTheSessionRecovers() throws Exception {
        Node primary = proxy.topology().shard("s0").primary();
        String password = proxy.topology().accounts().password();
        try (Connection c = proxy.mariadb("bf", "")) {
            assertThat(c.createStatement().executeQuery("SELECT 1").next()).isTrue();
            primary.kill();
            long start = System.nanoTime();
            assertThatThrownBy(() -> c.createStatement().executeQuery("SELECT 1"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1429);
                        assertThat(e.getMessage()).contains("shard s0 primary").doesNotContain(password);
                    });
            assertThat((System.nanoTime() - start) / 1_000_000).as("fails fast, no hang").isLessThan(3000);
            // A new connection fails at once too: the driver's first query names the missing backend.
            assertThatThrownBy(() -> proxy.mariadb("", "").close())
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("Unable to reach shard s0 primary")
                    .hasMessageNotContaining(password);
            primary.restart();
            // The same client connection carries on once the backend is back.
            try (ResultSet rows = c.createStatement().executeQuery("SELECT COUNT(*) FROM l")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getInt(1)).isEqualTo(3);
            }
        }
    }
}
