package io.shardgate.proxy.frontend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import io.shardgate.proxy.auth.NativePassword;
import io.shardgate.proxy.auth.RsaKeyPair;
import io.shardgate.proxy.config.DigestsConfig;
import io.shardgate.proxy.digest.DigestSnapshot;
import io.shardgate.proxy.digest.QueryDigests;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.HandshakeResponse41;
import io.shardgate.proxy.protocol.HandshakeV10;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.session.ClientStatement;
import io.shardgate.router.classify.Classification;
import io.shardgate.router.classify.StatementClassifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The digest hooks on the real {@link FrontendHandler}: a statement counts under its digest when it
 * starts and ends, whether a backend answered it (here a hand-written runner), the proxy did, or it
 * failed; SHOW SHARDGATE QUERIES lists them.
 */
class QueryDigestHooksTest {
    private static RsaKeyPair rsa;

    private final QueryDigests digests = new QueryDigests(new DigestsConfig(true, 100, 5));
    private final Runner runner = new Runner();
    private EmbeddedChannel channel;
    private FrontendHandler handler;

    @BeforeAll
    static void keys() {
        rsa = RsaKeyPair.generate(new SecureRandom());
    }

    @BeforeEach
    void login() {
        FrontendContext c = TestFrontend.create(rsa, 10).context();
        FrontendContext context = new FrontendContext(c.config(), c.users(), c.backends(), c.report(), c.tls(), c.rsa(),
                c.registry(), c.metrics(), c.errors(), c.random(), c.sharding(), digests);
        CommandPhase phase = new CommandPhase() {
            @Override
            public CompletableFuture<Void> openSchema(ClientSession session, EventLoop loop) {
                return CompletableFuture.completedFuture(null);
            }

            @Override
            public void abandon(ClientSession session) {
            }

            @Override
            public ChannelHandler commands(Login login) {
                handler = new FrontendHandler(context, new CommandRouter(context), login, runner,
                        new DdlGate(List.of("s0"), null, shard -> null));
                runner.scope = handler;
                return handler;
            }
        };
        channel = new EmbeddedChannel(new ConnectionPhaseHandler(context, phase));
        MySqlPacket greeting = channel.readOutbound();
        byte[] nonce = HandshakeV10.decode(greeting.payload()).scramble();
        greeting.release();
        long capabilities = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SECURE_CONNECTION | Capabilities.CLIENT_PLUGIN_AUTH
                | Capabilities.CLIENT_DEPRECATE_EOF | Capabilities.CLIENT_TRANSACTIONS;
        HandshakeResponse41 response = new HandshakeResponse41(capabilities, 1 << 24, 45, "app",
                NativePassword.scramble("app".getBytes(StandardCharsets.UTF_8), nonce), "", NativePassword.PLUGIN_NAME, java.util.Map.of(), 0);
        channel.writeInbound(new MySqlPacket(1, response.encode(ByteBufAllocator.DEFAULT)));
        drained();
    }

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    private void query(String sql) {
        ByteBuf payload = Unpooled.buffer().writeByte(Command.QUERY.code()).writeBytes(sql.getBytes(StandardCharsets.UTF_8));
        channel.writeInbound(new MySqlPacket(0, payload));
    }

    private String drained() {
        StringBuilder text = new StringBuilder();
        MySqlPacket packet;
        while ((packet = channel.readOutbound()) != null) {
            text.append(packet.payload().toString(StandardCharsets.ISO_8859_1)).append('|');
            packet.release();
        }
        return text.toString();
    }

    private DigestSnapshot digest(String text) {
        return digests.top(QueryDigests.Order.COUNT, 100).stream().filter(s -> s.text().equals(text)).findFirst().orElseThrow(
                () -> new AssertionError("no digest " + text + " in " + digests.top(QueryDigests.Order.COUNT, 100)));
    }

    @Test
    void forwardedStatementsCountUnderTheirDigest() {
        query("SELECT c FROM t WHERE id = 1");
        query("select c from t where id = 2");
        assertThat(drained()).isNotEmpty();
        DigestSnapshot select = digest("SELECT c FROM t WHERE id = ?");
        assertThat(select.count()).isEqualTo(2);
        assertThat(select.errors()).isZero();
        assertThat(runner.calls).isEqualTo(2);
    }

    @Test
    void anErrorCounts() {
        runner.fail = true;
        query("DELETE FROM t WHERE id = 7");
        assertThat(drained()).contains("boom");
        DigestSnapshot delete = digest("DELETE FROM t WHERE id = ?");
        assertThat(delete.count()).isEqualTo(1);
        assertThat(delete.errors()).isEqualTo(1);
    }

    @Test
    void statementsTheProxyAnswersCountToo() {
        query("SELECT @@shardgate_max_lag_ms");
        drained();
        assertThat(digest("SELECT @@shardgate_max_lag_ms").count()).isEqualTo(1);
        assertThat(runner.calls).isZero();
    }

    @Test
    void preparedStatementsCountUnderTheirPreparedText() {
        ClientSession session = handler.session();
        Classification classification = new StatementClassifier().classify("SELECT c FROM t WHERE id = ?");
        ClientStatement statement = session.statements().add(session.statements().reserveId(), "SELECT c FROM t WHERE id = ?",
                session.schema(), 0, classification);
        ByteBuf execute = Unpooled.buffer().writeByte(0x17).writeIntLE(statement.id()).writeByte(0).writeIntLE(1);
        channel.writeInbound(new MySqlPacket(0, execute));
        query("SELECT c FROM t WHERE id = 5");
        drained();
        assertThat(digest("SELECT c FROM t WHERE id = ?").count()).isEqualTo(2);
    }

    @Test
    void showShardgateQueriesListsTheDigests() {
        query("SELECT c FROM t WHERE id = 1");
        drained();
        query("SHOW SHARDGATE QUERIES");
        String answer = drained();
        assertThat(answer).contains("digest_text").contains("p99_us").contains("SELECT c FROM t WHERE id = ?");
        assertThat(runner.calls).isEqualTo(1);
    }

    @Test
    void showShardgateQueriesIsRecognisedByItsTokens() {
        assertThat(ShardgateStatement.parse("show  shardgate /* x */ queries;")).contains(new ShardgateStatement.Show(ShowShardgate.QUERIES));
        assertThat(ShardgateStatement.parse("SHOW SHARDGATE QUERIES LIKE 'x'")).isEmpty();
        assertThat(ShardgateStatement.parse("SELECT 'SHOW SHARDGATE QUERIES'")).isEmpty();
    }

    /** Answers every statement with an OK (or an ERR when {@link #fail}), as a backend would. */
    private static final class Runner implements StatementRunner {
        CommandScope scope;
        int calls;
        boolean fail;

        private void run(MySqlPacket packet) {
            packet.release();
            calls++;
            scope.busy();
            if (fail) {
                scope.writeError(1, new ErrPacket(1105, "HY000", "boom"));
            } else {
                scope.writeOk(1);
            }
            scope.afterCommand();
        }

        @Override
        public void forward(MySqlPacket packet, Command command) {
            run(packet);
        }

        @Override
        public void query(MySqlPacket packet, Classification classification, boolean needsLastInsertId,
                          TemporaryTableNames.Change temporaryTables, boolean readsDiagnostics) {
            run(packet);
        }

        @Override
        public void prepare(MySqlPacket packet, Classification classification, int id, String sql) {
            run(packet);
        }

        @Override
        public void prepareFailed(Classification classification, int id, String sql, Throwable error) {
        }

        @Override
        public void statement(MySqlPacket packet, Command command, ClientStatement statement, boolean needsLastInsertId) {
            run(packet);
        }
    }
}
