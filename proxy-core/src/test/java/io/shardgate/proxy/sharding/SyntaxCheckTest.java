package io.shardgate.proxy.sharding;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.proxy.backend.TestBackendConnections;
import io.shardgate.proxy.error.BackendErrorException;
import io.shardgate.proxy.execution.Packets;
import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.MySqlPacket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A statement the planner's parser cannot read is prepared on a shard's primary (never executed): the shard's
 * syntax error is the answer, byte for byte; a statement the shard can prepare, or not prepare at all (1295), or
 * that the shard cannot be asked about, keeps the planner's refusal. The backend is a connection over an
 * {@link EmbeddedChannel}, handed out by a real pool.
 */
class SyntaxCheckTest {
    private static final String SYNTAX_MESSAGE = "You have an error in your SQL syntax; check the manual that corresponds to your"
            + " MariaDB server version for the right syntax to use near 'SELEC 1' at line 1";

    private final EmbeddedChannel server = new EmbeddedChannel();
    private final BackendConnection connection = TestBackendConnections.over(server, "primary");
    private final BackendPool pool = new BackendPool(connection.target(),
            (loop, target, shaping, schema) -> CompletableFuture.completedFuture(connection), 1, Duration.ofSeconds(5));
    private final ShardgateException planError = ErrorCode.UNPARSEABLE.exception("SELEC", "SELEC 1");

    @AfterEach
    void close() {
        Packets.received(server);
        server.finishAndReleaseAll();
    }

    private CompletableFuture<Void> check(String sql) {
        return SyntaxCheck.refusal(planError, pool.acquire(server.eventLoop(), 0, ""), sql, ClientCharset.UTF8MB4);
    }

    @Test
    void aSyntaxErrorOfTheShardIsTheAnswerUnchanged() {
        CompletableFuture<Void> answer = check("SELEC 1");
        List<String> sent = Packets.received(server);
        assertThat(sent).as("one COM_STMT_PREPARE (0x16) of the client's text, nothing executed")
                .containsExactly("0:16" + HexFormat.of().formatHex("SELEC 1".getBytes(StandardCharsets.UTF_8)));

        ErrPacket shardError = new ErrPacket(1064, "42000", SYNTAX_MESSAGE);
        server.writeInbound(new MySqlPacket(1, shardError.encode(io.netty.buffer.UnpooledByteBufAllocator.DEFAULT)));
        server.runPendingTasks();

        Throwable cause = failure(answer);
        assertThat(cause).isInstanceOf(BackendErrorException.class);
        assertThat(((BackendErrorException) cause).packet()).isEqualTo(shardError);
        assertThat(pool.inUse()).as("the connection goes back to its pool").isZero();
        assertThat(Packets.received(server)).as("nothing executed, and no statement was created, so none is closed")
                .noneMatch(SyntaxCheckTest::runsOrCloses);
    }

    @Test
    void aStatementTheShardCanPrepareKeepsThePlannersRefusalAndIsClosedThere() {
        CompletableFuture<Void> answer = check("SELECT JSON_TABLE_LIKE_SYNTAX 1");
        Packets.received(server);
        // PREPARE OK: statement id 9, no columns, no parameters, no warnings.
        server.writeInbound(packet(1, 0x00, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
        server.runPendingTasks();

        assertThat(failure(answer)).isSameAs(planError);
        List<String> after = Packets.received(server);
        assertThat(after).as("COM_STMT_CLOSE (0x19) of statement 9, first").first().isEqualTo("0:1909000000");
        assertThat(after).as("never executed").noneMatch(p -> p.startsWith("0:03") || p.startsWith("0:17"));
        assertThat(pool.inUse()).isZero();
    }

    @Test
    void aStatementMariaDbDoesNotPrepareKeepsThePlannersRefusal() {
        CompletableFuture<Void> answer = check("PREPARE s FROM 'SELECT 1'");
        Packets.received(server);
        ErrPacket unsupported = new ErrPacket(1295, "HY000", "This command is not supported in the prepared statement protocol yet");
        server.writeInbound(new MySqlPacket(1, unsupported.encode(io.netty.buffer.UnpooledByteBufAllocator.DEFAULT)));
        server.runPendingTasks();

        assertThat(failure(answer)).as("1295 comes after the parse: the syntax is valid").isSameAs(planError);
    }

    @Test
    void anErrorOtherThanSyntaxKeepsThePlannersRefusal() {
        CompletableFuture<Void> answer = check("SELECT * FROM elsewhere ROWS");
        Packets.received(server);
        // 1146: the table may live on another shard; the check says nothing about it.
        server.writeInbound(new MySqlPacket(1, new ErrPacket(1146, "42S02", "Table 'shop.elsewhere' doesn't exist")
                .encode(io.netty.buffer.UnpooledByteBufAllocator.DEFAULT)));
        server.runPendingTasks();

        assertThat(failure(answer)).isSameAs(planError);
    }

    @Test
    void aShardThatCannotBeAskedKeepsThePlannersRefusal() {
        CompletableFuture<Void> answer = SyntaxCheck.refusal(planError,
                CompletableFuture.failedFuture(ErrorCode.BACKEND_UNAVAILABLE.exception("s0", "primary", "127.0.0.1:1", "refused")),
                "SELEC 1", ClientCharset.UTF8MB4);

        assertThat(failure(answer)).isSameAs(planError);
        assertThat(Packets.received(server)).isEmpty();
    }

    @Test
    void onlyTheParsersRefusalIsChecked() {
        assertThat(SyntaxCheck.applies(planError)).isTrue();
        assertThat(SyntaxCheck.applies(ErrorCode.UNSUPPORTED.exception("LOCK TABLES statements in a sharded deployment"))).isFalse();
        assertThat(SyntaxCheck.applies(new IllegalStateException("x"))).isFalse();
    }

    @Test
    void explainShardgateIsCheckedAsTheStatementItExplains() {
        assertThat(SyntaxCheck.checked("EXPLAIN SHARDGATE SELEC 1")).isEqualTo("SELEC 1");
        assertThat(SyntaxCheck.checked("explain /* c */ shardgate  SELECT 1 FORM t")).isEqualTo("SELECT 1 FORM t");
        assertThat(SyntaxCheck.checked("EXPLAIN SELEC 1")).isEqualTo("EXPLAIN SELEC 1");
        assertThat(SyntaxCheck.checked("SELEC 1")).isEqualTo("SELEC 1");
    }

    /** COM_QUERY (0x03), COM_STMT_EXECUTE (0x17) or COM_STMT_CLOSE (0x19); the pool's own reset (0x1f) is neither. */
    private static boolean runsOrCloses(String packet) {
        return packet.startsWith("0:03") || packet.startsWith("0:17") || packet.startsWith("0:19");
    }

    private static Throwable failure(CompletableFuture<?> future) {
        assertThat(future).isCompletedExceptionally();
        return future.handle((ok, error) -> error).join();
    }

    private static MySqlPacket packet(int sequence, int... bytes) {
        byte[] payload = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            payload[i] = (byte) bytes[i];
        }
        return new MySqlPacket(sequence, Unpooled.wrappedBuffer(payload));
    }
}
