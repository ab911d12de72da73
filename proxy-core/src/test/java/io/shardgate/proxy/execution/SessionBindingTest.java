package io.shardgate.proxy.execution;

import static io.shardgate.proxy.execution.Packets.err;
import static io.shardgate.proxy.execution.Packets.ok;
import static io.shardgate.proxy.execution.Packets.received;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.TestBackendConnections;
import io.shardgate.proxy.protocol.ServerStatus;
import io.shardgate.proxy.session.SessionSettings;
import io.shardgate.proxy.session.SessionVariables;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A backend connection brought to its session before a statement: schema, one SET, then what must run first. */
class SessionBindingTest {
    private final EmbeddedChannel server = new EmbeddedChannel();
    private final BackendConnection connection = TestBackendConnections.over(server, "primary");

    @AfterEach
    void close() {
        received(server);
        server.finishAndReleaseAll();
    }

    /** The commands the server got, as text after the command byte. */
    private List<String> commands() {
        return received(server).stream().map(SessionBindingTest::text).toList();
    }

    private static String text(String packet) {
        String hex = packet.substring(packet.indexOf(':') + 3); // the command byte left out
        byte[] bytes = java.util.HexFormat.of().parseHex(hex);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Test
    void aConnectionInTheSessionsStateNeedsNoRoundTrip() {
        SessionBinding binding = new SessionBinding("", SessionSettings.DEFAULTS, OptionalLong.empty(), null);

        CompletableFuture<BackendConnection> synced = binding.sync(connection);

        assertThat(synced).isCompletedWithValue(connection);
        assertThat(commands()).isEmpty();
    }

    @Test
    void schemaThenSettingsThenTheStatementThatMustRunFirst() {
        SessionSettings settings = SessionSettings.DEFAULTS.withSystem(SessionVariables.NONE.with("sql_mode", "ANSI_QUOTES"));
        SessionBinding binding = new SessionBinding("app", settings, OptionalLong.of(41),
                () -> "SET TRANSACTION ISOLATION LEVEL READ COMMITTED");

        CompletableFuture<BackendConnection> synced = binding.sync(connection);
        assertThat(commands()).containsExactly("app");
        server.writeInbound(ok(1, 0, ServerStatus.AUTOCOMMIT));
        assertThat(commands()).containsExactly("SET SESSION sql_mode='ANSI_QUOTES', SESSION last_insert_id=41");
        server.writeInbound(ok(1, 0, ServerStatus.AUTOCOMMIT));
        assertThat(commands()).containsExactly("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
        assertThat(synced).isNotDone();
        server.writeInbound(ok(1, 0, ServerStatus.AUTOCOMMIT));

        assertThat(synced).isCompletedWithValue(connection);
        assertThat(connection.schema()).isEqualTo("app");
        assertThat(connection.settings()).isEqualTo(settings);
        assertThat(connection.lastInsertId()).isEqualTo(41);
    }

    @Test
    void aFailedSetFailsTheBindingAndLeavesTheConnectionsSettingsAsTheyWere() {
        SessionSettings settings = SessionSettings.DEFAULTS.withSystem(SessionVariables.NONE.with("sql_mode", "NO_SUCH_MODE"));
        SessionBinding binding = new SessionBinding("", settings, OptionalLong.empty(), null);

        CompletableFuture<BackendConnection> synced = binding.sync(connection);
        assertThat(commands()).containsExactly("SET SESSION sql_mode='NO_SUCH_MODE'");
        server.writeInbound(err(1));

        assertThat(synced).isCompletedExceptionally();
        assertThat(connection.settings()).isEqualTo(SessionSettings.DEFAULTS);
    }
}
