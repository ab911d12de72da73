package io.shardgate.proxy.execution;

import static io.shardgate.proxy.execution.Packets.err;
import static io.shardgate.proxy.execution.Packets.hex;
import static io.shardgate.proxy.execution.Packets.ok;
import static io.shardgate.proxy.execution.Packets.received;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.embedded.EmbeddedChannel;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.BackendStatement;
import io.shardgate.proxy.backend.TestBackendConnections;
import io.shardgate.proxy.metrics.ProxyMetrics;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.ServerStatus;
import io.shardgate.proxy.session.ClientStatement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A client's command forwarded to its session's backend: relayed, retried on the primary, failed with an ERR or a close. */
class ForwarderTest {
    private final EmbeddedChannel client = new EmbeddedChannel();
    private final EmbeddedChannel replicaServer = new EmbeddedChannel();
    private final EmbeddedChannel primaryServer = new EmbeddedChannel();
    private final BackendConnection replica = TestBackendConnections.over(replicaServer, "replica");
    private final BackendConnection primary = TestBackendConnections.over(primaryServer, "primary");
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final FakeHost host = new FakeHost();
    private final Forwarder<Request> forwarder = new Forwarder<>(client,
            new ClientChannel(client, Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_DEPRECATE_EOF),
            new ProxyMetrics(registry, () -> 0), host, "connection 1");

    @AfterEach
    void close() {
        for (EmbeddedChannel channel : List.of(client, replicaServer, primaryServer)) {
            received(channel);
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void aReadIsRelayedAndTheSessionFollowsIt() {
        host.backends.add(primary);
        forwarder.forward(MySqlPacket.command(Command.QUERY, "SELECT 1"), new Request(Command.QUERY, false));
        assertThat(received(primaryServer)).hasSize(1);

        MySqlPacket ok = ok(1, 0, ServerStatus.AUTOCOMMIT);
        String expected = hex(ok);
        primaryServer.writeInbound(ok);
        client.runPendingTasks();

        assertThat(received(client)).containsExactly(expected);
        assertThat(host.events).containsExactly("completed status=2 error=false", "afterCommand");
    }

    @Test
    void aReplicaThatFailsBeforeAnsweringHandsTheReadToThePrimary() {
        host.backends.add(replica);
        host.backends.add(primary);
        forwarder.forward(MySqlPacket.command(Command.QUERY, "SELECT 1"), new Request(Command.QUERY, false));
        List<String> toReplica = received(replicaServer);
        assertThat(toReplica).hasSize(1);

        replicaServer.close(); // the replica is lost before its first byte
        client.runPendingTasks();

        assertThat(host.asked).containsExactly("first try", "retry");
        assertThat(received(primaryServer)).as("the same statement, now on the primary").isEqualTo(toReplica);
        assertThat(registry.counter("shardgate_reads_retried").count()).isEqualTo(1.0);

        MySqlPacket ok = ok(1, 0, ServerStatus.AUTOCOMMIT);
        String expected = hex(ok);
        primaryServer.writeInbound(ok);
        client.runPendingTasks();
        assertThat(received(client)).containsExactly(expected);
        assertThat(host.events).containsExactly("discardBackend", "completed status=2 error=false", "afterCommand");
    }

    @Test
    void aReadInsideATransactionIsNotRetried() {
        host.inTransaction = true;
        host.backends.add(replica);
        forwarder.forward(MySqlPacket.command(Command.QUERY, "SELECT 1"), new Request(Command.QUERY, false));
        replicaServer.close();
        client.runPendingTasks();

        assertThat(host.asked).containsExactly("first try");
        assertThat(host.events).containsExactly("discardBackend", "lost started=false");
    }

    @Test
    void aBackendLostAfterPartOfTheResponseEndsTheClientConnection() {
        host.backends.add(replica);
        forwarder.forward(MySqlPacket.command(Command.QUERY, "SELECT 1"), new Request(Command.QUERY, false));
        replicaServer.writeInbound(Packets.oneColumn()[0]);
        replicaServer.close();
        client.runPendingTasks();

        assertThat(host.asked).as("part of the answer reached the client: no second try").containsExactly("first try");
        assertThat(host.events).containsExactly("discardBackend", "lost started=true");
    }

    @Test
    void noConnectionMeansAnErrorBeforeAnyResponse() {
        forwarder.forward(MySqlPacket.command(Command.QUERY, "SELECT 1"), new Request(Command.QUERY, false));
        client.runPendingTasks();

        assertThat(host.events).containsExactly("failBeforeResponse no backend");
    }

    @Test
    void anErrFromTheBackendIsRelayedAndCounted() {
        host.backends.add(primary);
        forwarder.forward(MySqlPacket.command(Command.QUERY, "SELECT * FROM nowhere"), new Request(Command.QUERY, false));
        MySqlPacket err = err(1);
        String expected = hex(err);
        primaryServer.writeInbound(err);
        client.runPendingTasks();

        assertThat(received(client)).containsExactly(expected);
        assertThat(host.events).hasSize(2);
        assertThat(host.events.get(0)).startsWith("completed").endsWith("error=true");
        assertThat(host.events.get(1)).isEqualTo("afterCommand");
        assertThat(registry.find("shardgate_backend_errors").counters()).isNotEmpty();
    }

    @Test
    void aHostThatThrowsEndsTheCommandWithAnError() {
        host.backends.add(primary);
        host.throwOnResponse = true;
        forwarder.forward(MySqlPacket.command(Command.QUERY, "SELECT 1"), new Request(Command.QUERY, false));
        client.runPendingTasks();

        assertThat(host.events).containsExactly("discardBackend", "failBeforeResponse broken host");
    }

    /** A forwarded command as the tests describe it. */
    record Request(Command command, boolean retried) implements Forwarder.Request<Request> {
        @Override
        public ClientStatement statement() {
            return null;
        }

        @Override
        public Request retry() {
            return new Request(command, true);
        }
    }

    /** A session bound to whichever backend the test queued next, recording what the forwarder asked of it. */
    private static final class FakeHost implements Forwarder.Host<Request> {
        final Deque<BackendConnection> backends = new ArrayDeque<>();
        final List<String> asked = new ArrayList<>();
        final List<String> events = new ArrayList<>();
        boolean inTransaction;
        boolean throwOnResponse;

        @Override
        public CompletableFuture<BackendConnection> backendFor(Request request) {
            asked.add(request.retried() ? "retry" : "first try");
            BackendConnection next = backends.poll();
            return next == null ? CompletableFuture.failedFuture(new IllegalStateException("no backend"))
                    : CompletableFuture.completedFuture(next);
        }

        @Override
        public boolean inTransaction() {
            return inTransaction;
        }

        @Override
        public boolean bindsOnlyForCommand(BackendConnection backend) {
            return true;
        }

        @Override
        public boolean gone() {
            return false;
        }

        @Override
        public boolean active() {
            return true;
        }

        @Override
        public void abandon() {
            events.add("abandon");
        }

        @Override
        public void discardBackend() {
            events.add("discardBackend");
        }

        @Override
        public void close() {
            events.add("close");
        }

        @Override
        public ClientCharset charset() {
            return ClientCharset.UTF8MB4;
        }

        @Override
        public MySqlPacket forBackend(MySqlPacket packet, ClientStatement statement, BackendStatement prepared) {
            return packet;
        }

        @Override
        public Forwarder.Response response(Request request, BackendConnection backend) {
            if (throwOnResponse) {
                throw new IllegalStateException("broken host");
            }
            return new Forwarder.Response() {
                @Override
                public MySqlPacket relaying(BackendConnection connection, MySqlPacket packet) {
                    return packet;
                }

                @Override
                public void completed(int status, boolean error, int warnings) {
                    events.add("completed status=" + status + " error=" + error);
                }
            };
        }

        @Override
        public void failBeforeResponse(Request request, Throwable error) {
            events.add("failBeforeResponse " + error.getMessage());
        }

        @Override
        public void afterCommand() {
            events.add("afterCommand");
        }

        @Override
        public void lost(Request request, Throwable cause, boolean started) {
            events.add("lost started=" + started);
        }
    }
}
