package io.shardgate.proxy.execution;

import static io.shardgate.proxy.execution.Packets.endOfRows;
import static io.shardgate.proxy.execution.Packets.err;
import static io.shardgate.proxy.execution.Packets.hex;
import static io.shardgate.proxy.execution.Packets.ok;
import static io.shardgate.proxy.execution.Packets.oneColumn;
import static io.shardgate.proxy.execution.Packets.received;
import static io.shardgate.proxy.execution.Packets.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.TestBackendConnections;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.ServerStatus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The one relay of a single backend's response: byte for byte, or with its end rewritten; and backpressure. */
class RelayTest {
    private final EmbeddedChannel client = new EmbeddedChannel();
    private final EmbeddedChannel server = new EmbeddedChannel();
    private final BackendConnection backend = TestBackendConnections.over(server, "primary");
    private final ClientChannel out = new ClientChannel(client, Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_DEPRECATE_EOF);
    private final RecordingListener listener = new RecordingListener();

    @AfterEach
    void close() {
        received(client);
        received(server);
        client.finishAndReleaseAll();
        server.finishAndReleaseAll();
    }

    private Relay run(Relay.Shape shape, int status) {
        Relay relay = new Relay(backend, out, shape, status, listener);
        backend.execute(MySqlPacket.command(Command.QUERY, "SELECT c FROM t"), Command.QUERY, relay);
        received(server); // the query the server got
        return relay;
    }

    @Test
    void aResultSetPassesThroughByteForByte() {
        run(Relay.Shape.PASSTHROUGH, 0);
        MySqlPacket[] columns = oneColumn();
        List<MySqlPacket> response = List.of(columns[0], columns[1], row(3, "x"), row(4, "yz"), endOfRows(5));
        List<String> expected = new ArrayList<>();
        for (MySqlPacket packet : response) {
            expected.add(hex(packet));
        }
        server.writeInbound(response.toArray());

        assertThat(received(client)).containsExactlyElementsOf(expected);
        assertThat(listener.completions).containsExactly("completed error=false");
    }

    @Test
    void anOkPassesThroughAndCompletesWithTheBackendsStatus() {
        run(Relay.Shape.PASSTHROUGH, 0);
        MySqlPacket ok = ok(1, 7, ServerStatus.AUTOCOMMIT);
        String expected = hex(ok);
        server.writeInbound(ok);

        assertThat(received(client)).containsExactly(expected);
        assertThat(listener.completions).containsExactly("completed error=false");
        assertThat(listener.status).isEqualTo(ServerStatus.AUTOCOMMIT);
    }

    @Test
    void anErrPassesThroughAndCompletesAsAnError() {
        Relay relay = run(Relay.Shape.PASSTHROUGH, 0);
        MySqlPacket err = err(1);
        String expected = hex(err);
        server.writeInbound(err);

        assertThat(received(client)).containsExactly(expected);
        assertThat(listener.completions).containsExactly("completed error=true");
        assertThat(relay.started()).isTrue();
    }

    @Test
    void aRewrittenOkCarriesTheSessionsStatusAndReportsTheInsertId() {
        int sessionStatus = ServerStatus.AUTOCOMMIT | ServerStatus.IN_TRANS;
        Relay relay = run(Relay.Shape.TEXT, sessionStatus);
        server.writeInbound(ok(1, 42, ServerStatus.AUTOCOMMIT));

        List<String> sent = received(client);
        assertThat(sent).hasSize(1);
        // OK header, 0 rows, insert id 42, then the session's status flags (little endian), 0 warnings.
        assertThat(sent.get(0)).startsWith("1:00002a" + String.format("%02x%02x", sessionStatus & 0xFF, sessionStatus >> 8) + "0000");
        assertThat(relay.insertId()).isEqualTo(42);
        assertThat(relay.relayedErrno()).isZero();
        assertThat(listener.completions).containsExactly("completed error=false");
    }

    @Test
    void aRewrittenResultNumbersItsPacketsFromOne() {
        Relay relay = run(Relay.Shape.TEXT, ServerStatus.AUTOCOMMIT);
        MySqlPacket[] columns = oneColumn();
        server.writeInbound(columns[0], columns[1], row(3, "x"), err(4));

        List<String> sent = received(client);
        assertThat(sent).extracting(packet -> packet.substring(0, packet.indexOf(':'))).containsExactly("1", "2", "3", "4");
        assertThat(sent.get(2)).isEqualTo("3:0178");
        assertThat(relay.relayedErrno()).isEqualTo(1146);
    }

    @Test
    void aClientThatCannotKeepUpPausesTheBackendUntilItDrains() {
        run(Relay.Shape.PASSTHROUGH, 0);
        client.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
        MySqlPacket[] columns = oneColumn();
        server.writeInbound(columns[0], columns[1], row(3, "x"));

        assertThat(backend.isReading()).as("paused while the client's socket is full").isFalse();
        assertThat(listener.completions).isEmpty();

        client.unsafe().outboundBuffer().setUserDefinedWritability(1, true);
        out.writabilityChanged();
        assertThat(backend.isReading()).as("reading again once the client drained").isTrue();

        server.writeInbound(endOfRows(4));
        assertThat(received(client)).hasSize(4);
        assertThat(listener.completions).containsExactly("completed error=false");
    }

    @Test
    void aClientThatLeavesResumesAPausedBackendSoItsResponseCanEnd() {
        run(Relay.Shape.PASSTHROUGH, 0);
        client.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
        MySqlPacket[] columns = oneColumn();
        server.writeInbound(columns[0], columns[1]);
        assertThat(backend.isReading()).isFalse();

        client.close();
        out.writabilityChanged();
        assertThat(backend.isReading()).isTrue();
    }

    @Test
    void aLostConnectionIsReportedWithWhetherTheResponseStarted() {
        Relay relay = run(Relay.Shape.PASSTHROUGH, 0);
        server.writeInbound(oneColumn()[0]);
        server.close();

        assertThat(listener.completions).containsExactly("failed started=true");
        assertThat(relay.started()).isTrue();
    }

    /** Records what the relay reported, in order. */
    private static final class RecordingListener implements Relay.Listener {
        final List<String> completions = new ArrayList<>();
        int status = -1;

        @Override
        public void completed(Relay relay, int serverStatus, boolean error) {
            status = serverStatus;
            completions.add("completed error=" + error);
        }

        @Override
        public void failed(Relay relay, Throwable cause) {
            completions.add("failed started=" + relay.started());
        }
    }
}
