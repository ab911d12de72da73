package io.shardgate.proxy.execution;

import io.netty.channel.embedded.EmbeddedChannel;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.TestBackendConnections;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MySqlPacket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A shard result its reader stops reading early: the rest is drained, but a pooled connection whose
 * rest takes longer than {@link ShardResultStream#ABANDON_AFTER_MS} is closed instead (MariaDB would
 * go on sending millions of rows); a transaction's connection is always drained.
 */
class ShardResultStreamTest {
    private final EmbeddedChannel server = new EmbeddedChannel();
    private final BackendConnection connection = TestBackendConnections.over(server, "primary");
    private final List<ShardResultStream> handedBack = new ArrayList<>();

    @AfterEach
    void close() {
        server.finishAndReleaseAll();
    }

    private ShardResultStream started(boolean abandonable) {
        ShardResultStream stream = new ShardResultStream("s0", ColumnCollations.asReported(), handedBack::add);
        stream.connection(connection);
        if (abandonable) {
            stream.abandonable();
        }
        connection.execute(MySqlPacket.command(Command.QUERY, "SELECT c FROM t"), Command.QUERY, stream);
        Packets.received(server);
        for (MySqlPacket packet : Packets.oneColumn()) {
            server.writeInbound(packet);
        }
        server.writeInbound(Packets.row(3, "a"));
        server.writeInbound(Packets.row(4, "b"));
        server.runPendingTasks();
        assertThat(stream.next().get(0).text()).isEqualTo("a");
        return stream;
    }

    @Test
    void aPooledConnectionStillSendingAfterTheGraceIsClosedNotDrained() {
        ShardResultStream stream = started(true);
        stream.close();
        server.writeInbound(Packets.row(5, "c"));
        assertThat(server.isOpen()).as("drained at first").isTrue();
        server.advanceTimeBy(ShardResultStream.ABANDON_AFTER_MS + 1, TimeUnit.MILLISECONDS);
        server.runScheduledPendingTasks();
        server.runPendingTasks();
        assertThat(server.isOpen()).as("closed once the grace is over").isFalse();
        assertThat(handedBack).as("and handed back, to be discarded").containsExactly(stream);
        assertThat(connection.isOpen()).isFalse();
    }

    @Test
    void aResultThatEndsWithinTheGraceKeepsItsConnection() {
        ShardResultStream stream = started(true);
        stream.close();
        server.writeInbound(Packets.row(5, "c"), Packets.endOfRows(6));
        server.advanceTimeBy(ShardResultStream.ABANDON_AFTER_MS + 1, TimeUnit.MILLISECONDS);
        server.runScheduledPendingTasks();
        assertThat(server.isOpen()).isTrue();
        assertThat(handedBack).containsExactly(stream);
    }

    @Test
    void aTransactionsConnectionIsAlwaysDrained() {
        ShardResultStream stream = started(false);
        stream.close();
        server.advanceTimeBy(ShardResultStream.ABANDON_AFTER_MS * 10, TimeUnit.MILLISECONDS);
        server.runScheduledPendingTasks();
        assertThat(server.isOpen()).isTrue();
        assertThat(handedBack).as("not yet: the rest is still coming").isEmpty();
        server.writeInbound(Packets.endOfRows(5));
        assertThat(handedBack).containsExactly(stream);
    }
}
