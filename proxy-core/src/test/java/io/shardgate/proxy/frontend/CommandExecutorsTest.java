package io.shardgate.proxy.frontend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import io.shardgate.proxy.auth.NativePassword;
import io.shardgate.proxy.auth.RsaKeyPair;
import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.proxy.config.UserConfig;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.HandshakeResponse41;
import io.shardgate.proxy.protocol.HandshakeV10;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.session.ClientStatement;
import io.shardgate.proxy.session.SessionPin;
import io.shardgate.router.classify.Classification;
import io.shardgate.router.classify.StatementClass;
import io.shardgate.router.classify.StatementClassifier;
import io.shardgate.storage.capability.InnoDbCapabilities;
import io.shardgate.storage.capability.ServerFacts;
import io.shardgate.storage.ddl.DdlValidator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each command executor, run by the real {@link FrontendHandler} in an {@link EmbeddedChannel}
 * after a real login, with a hand-written {@link FakeRunner} at the one seam to the backends. The
 * backend pool points at a closed port: a command that reached for a backend by any other way
 * would show up as a connection opened.
 */
class CommandExecutorsTest {
    private static RsaKeyPair rsa;

    private final FakeRunner runner = new FakeRunner();
    private BackendPool pool;
    private ConnectionRegistry registry;
    private EmbeddedChannel channel;
    private FrontendHandler handler;
    private byte[] nonce;

    @BeforeAll
    static void keys() {
        rsa = RsaKeyPair.generate(new SecureRandom());
    }

    @BeforeEach
    void login() {
        TestFrontend frontend = TestFrontend.create(rsa, 10, Map.of(
                "app", UserConfig.withPassword("app", "app", false, UserConfig.NATIVE),
                "other", UserConfig.withPassword("other", "pw", false, UserConfig.NATIVE)));
        pool = frontend.pool();
        registry = frontend.registry();
        FrontendContext context = frontend.context();
        ServerFacts facts = new ServerFacts("10.11.6-MariaDB", Map.of("INNODB", "DEFAULT"), Map.of(),
                Map.of("innodb_lock_wait_timeout", "50", "innodb_page_size", "16384"), Map.of(), Map.of());
        DdlGate ddlGate = new DdlGate(List.of("s0"), new DdlValidator(), shard -> InnoDbCapabilities.from(facts), schema -> true);
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
                handler = new FrontendHandler(context, new CommandRouter(context), login, runner, ddlGate);
                runner.scope = handler;
                return handler;
            }
        };
        channel = new EmbeddedChannel(new ConnectionPhaseHandler(context, phase));
        MySqlPacket greeting = channel.readOutbound();
        nonce = HandshakeV10.decode(greeting.payload()).scramble();
        greeting.release();
        long capabilities = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SECURE_CONNECTION | Capabilities.CLIENT_PLUGIN_AUTH
                | Capabilities.CLIENT_DEPRECATE_EOF | Capabilities.CLIENT_TRANSACTIONS;
        HandshakeResponse41 response = new HandshakeResponse41(capabilities, 1 << 24, 45, "app",
                NativePassword.scramble(bytes("app"), nonce), "", NativePassword.PLUGIN_NAME, Map.of(), 0);
        channel.writeInbound(new MySqlPacket(1, response.encode(ByteBufAllocator.DEFAULT)));
        expectOk();
    }

    @AfterEach
    void noBackendWasTaken() {
        assertThat(pool.open()).as("backend connections opened").isZero();
        channel.finishAndReleaseAll();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private void send(int... bytes) {
        ByteBuf payload = Unpooled.buffer(bytes.length);
        for (int b : bytes) {
            payload.writeByte(b);
        }
        channel.writeInbound(new MySqlPacket(0, payload));
    }

    private void query(String sql) {
        ByteBuf payload = Unpooled.buffer().writeByte(Command.QUERY.code()).writeBytes(bytes(sql));
        channel.writeInbound(new MySqlPacket(0, payload));
    }

    private void expectOk() {
        MySqlPacket ok = channel.readOutbound();
        assertThat(ok).as("an answer").isNotNull();
        try {
            assertThat(ok.header()).as("OK").isZero();
        } finally {
            ok.release();
        }
    }

    private ErrPacket expectError() {
        MySqlPacket packet = channel.readOutbound();
        assertThat(packet).as("an answer").isNotNull();
        try {
            assertThat(packet.header()).as("ERR").isEqualTo(0xFF);
            return ErrPacket.decode(packet.payload());
        } finally {
            packet.release();
        }
    }

    /** Every packet written so far, as Latin-1 text, one after the other. */
    private String drained() {
        StringBuilder text = new StringBuilder();
        MySqlPacket packet;
        while ((packet = channel.readOutbound()) != null) {
            text.append(packet.payload().toString(StandardCharsets.ISO_8859_1)).append('|');
            packet.release();
        }
        return text.toString();
    }

    private ClientStatement prepared(String sql, int parameters) {
        ClientSession session = handler.session();
        Classification classification = new StatementClassifier().classify(sql);
        return session.statements().add(session.statements().reserveId(), sql, session.schema(), parameters, classification);
    }

    @Test
    void pingIsAnsweredByTheProxy() {
        send(0x0E);
        expectOk();
        assertThat(runner.calls).isEmpty();
    }

    @Test
    void quitClosesWithoutAnAnswer() {
        send(0x01);
        channel.runPendingTasks();
        assertThat((Object) channel.readOutbound()).isNull();
        assertThat(channel.isOpen()).isFalse();
        assertThat(registry.connections()).as("the slot is given back").isZero();
    }

    @Test
    void unsupportedCommandsGet1047() {
        send(0x08); // COM_SHUTDOWN
        assertThat(expectError().errno()).isEqualTo(1047);
        send(0x0E);
        expectOk();
        assertThat(runner.calls).isEmpty();
    }

    @Test
    void closeAndResetOfUnknownStatementIds() {
        send(0x19, 5, 0, 0, 0);
        assertThat((Object) channel.readOutbound()).as("COM_STMT_CLOSE is never answered").isNull();
        send(0x1A, 5, 0, 0, 0);
        ErrPacket error = expectError();
        assertThat(error.errno()).isEqualTo(1243);
        assertThat(error.message()).contains("mysqld_stmt_reset");
        assertThat(runner.calls).isEmpty();
    }

    @Test
    void closeAndResetOfAStatementWithNothingOpenStayOnTheProxy() {
        ClientStatement statement = prepared("SELECT 1", 0);
        send(0x1A, statement.id(), 0, 0, 0);
        expectOk();
        send(0x19, statement.id(), 0, 0, 0);
        assertThat((Object) channel.readOutbound()).isNull();
        assertThat(handler.session().statements().find(statement.id())).as("forgotten").isEmpty();
        assertThat(runner.calls).isEmpty();
    }

    @Test
    void shardgateSessionVariablesAreAnsweredByTheProxy() {
        query("SET @@session.shardgate_max_lag_ms = 250");
        expectOk();
        query("SELECT @@session.shardgate_max_lag_ms");
        String result = drained();
        assertThat(result).contains("@@shardgate_max_lag_ms").contains("250");
        assertThat(runner.calls).isEmpty();
    }

    @Test
    void showShardgateBackendsListsThePools() {
        query("SHOW SHARDGATE BACKENDS");
        assertThat(drained()).contains("gtid_position").contains("s0").contains("primary").contains("127.0.0.1:1");
        assertThat(runner.calls).isEmpty();
    }

    @Test
    void showShardgateHelpListsEveryStatementOnALineEach() {
        query("show shardgate help;");
        String help = drained();
        assertThat(help).contains("statement").contains("description");
        for (ShowShardgate show : ShowShardgate.values()) {
            assertThat(help).contains(show.statement()).contains(show.description());
        }
        assertThat(help).contains("EXPLAIN SHARDGATE <statement>").doesNotContain("TODO", "pos ");
        assertThat(runner.calls).isEmpty();
    }

    @Test
    void anUnknownShowShardgateIsASyntaxErrorListingTheKnownOnes() {
        query("SHOW SHARDGATE BACKEND");
        ErrPacket error = expectError();
        assertThat(error.errno()).isEqualTo(1064);
        assertThat(error.sqlState()).isEqualTo("42000");
        assertThat(error.message()).isEqualTo("You have an error in your SQL syntax near 'BACKEND': Shardgate's own statements are"
                + " SHOW SHARDGATE BACKENDS, SHOW SHARDGATE QUERIES, SHOW SHARDGATE SCHEMA, SHOW SHARDGATE TOPOLOGY, SHOW SHARDGATE HELP, EXPLAIN SHARDGATE <statement>;"
                + " SHOW SHARDGATE HELP describes them");
        query("SHOW SHARDGATE");
        assertThat(expectError().message()).startsWith("You have an error in your SQL syntax near '': ");
        assertThat(runner.calls).as("never sent to a backend").isEmpty();
    }

    @Test
    void explainShardgateWithoutShardedSchemasSaysSo() {
        query("EXPLAIN SHARDGATE SELECT 1");
        ErrPacket error = expectError();
        assertThat(error.errno()).isEqualTo(1235);
        assertThat(error.message()).contains("EXPLAIN SHARDGATE without a schemas section");
        query("EXPLAIN SHARDGATE");
        assertThat(expectError().errno()).isEqualTo(1064);
        assertThat(runner.calls).isEmpty();
    }

    @Test
    void killOfAnUnknownConnectionIs1094() {
        query("KILL QUERY 4242");
        channel.runPendingTasks();
        ErrPacket error = expectError();
        assertThat(error.errno()).isEqualTo(1094);
        send(0x0C, 0x92, 0x10, 0, 0); // COM_PROCESS_KILL 4242
        channel.runPendingTasks();
        assertThat(expectError().errno()).isEqualTo(1094);
        assertThat(runner.calls).isEmpty();
    }

    @Test
    void setTransactionWithoutScopeWaitsForTheNextStatement() {
        query("SET TRANSACTION READ ONLY");
        expectOk();
        assertThat(runner.calls).as("not sent anywhere yet").isEmpty();
        assertThat(handler.session().nextTransaction()).isEqualTo("SET TRANSACTION READ ONLY");
        assertThat(handler.session().nextTransactionReadOnly()).isTrue();
        query("SET SESSION TRANSACTION READ ONLY");
        expectOk();
        assertThat(runner.calls).containsExactly("QUERY SET SESSION TRANSACTION READ ONLY");
    }

    @Test
    void ddlTheEnginesRefuseIsAnsweredWithoutABackend() {
        query("CREATE TABLE t (id INT PRIMARY KEY) ENGINE=Aria");
        ErrPacket error = expectError();
        assertThat(error.message()).contains("Aria");
        assertThat(runner.calls).isEmpty();
    }

    @Test
    void aQueryGoesThroughTheRunnerWithItsClassification() {
        query("SELECT c FROM t WHERE id = 1");
        expectOk();
        assertThat(runner.calls).containsExactly("QUERY SELECT c FROM t WHERE id = 1");
        assertThat(runner.classification.statementClass()).isEqualTo(StatementClass.READ);
    }

    @Test
    void connectionIdIsRewrittenToShardgatesBeforeTheRunner() {
        query("SELECT CONNECTION_ID()");
        expectOk();
        long id = handler.session().connectionId();
        assertThat(runner.calls).containsExactly("QUERY SELECT " + id + " AS `CONNECTION_ID()`");
    }

    @Test
    void commandsWaitForTheRunningOneInOrder() {
        runner.hold = true;
        query("SELECT 1");
        send(0x0E);
        query("SELECT 2");
        assertThat((Object) channel.readOutbound()).as("the first command still runs").isNull();
        assertThat(runner.calls).containsExactly("QUERY SELECT 1");
        runner.hold = false;
        runner.finish();
        expectOk(); // SELECT 1
        expectOk(); // the PING
        expectOk(); // SELECT 2, run by the fake at once
        assertThat(runner.calls).containsExactly("QUERY SELECT 1", "QUERY SELECT 2");
    }

    @Test
    void prepareReservesAnIdAndGoesThroughTheRunner() {
        ByteBuf payload = Unpooled.buffer().writeByte(Command.STMT_PREPARE.code()).writeBytes(bytes("SELECT ?"));
        channel.writeInbound(new MySqlPacket(0, payload));
        expectOk();
        assertThat(runner.calls).containsExactly("STMT_PREPARE id=1 SELECT ?");
    }

    @Test
    void tooManyPreparedStatementsIsRefusedBeforeTheRunner() {
        int limit = handler.session().statements().limit();
        for (int i = 0; i < limit; i++) {
            prepared("SELECT " + i, 0);
        }
        ByteBuf payload = Unpooled.buffer().writeByte(Command.STMT_PREPARE.code()).writeBytes(bytes("SELECT ?"));
        channel.writeInbound(new MySqlPacket(0, payload));
        assertThat(expectError().errno()).isEqualTo(1461);
        assertThat(runner.calls).isEmpty();
    }

    @Test
    void executeFetchAndLongDataOfAPreparedStatement() {
        ClientStatement plain = prepared("SELECT 1", 0);
        send(0x17, plain.id(), 0, 0, 0, 0, 1, 0, 0, 0);
        expectOk();
        send(0x1C, plain.id(), 0, 0, 0, 1, 0, 0, 0);
        assertThat(expectError().errno()).as("no cursor is open").isEqualTo(1421);
        ClientStatement withParameter = prepared("SELECT ?", 1);
        send(0x18, withParameter.id(), 0, 0, 0, 0, 0, 'x');
        assertThat((Object) channel.readOutbound()).as("long data is never answered").isNull();
        assertThat(handler.session().longData()).contains(withParameter.id());
        assertThat(runner.calls).containsExactly("STMT_EXECUTE #" + plain.id(), "STMT_SEND_LONG_DATA #" + withParameter.id());
    }

    @Test
    void setOptionPinsTheBackendConnectionAndInitDbIsForwarded() {
        send(0x1B, 0, 0);
        expectOk();
        assertThat(handler.session().pins()).contains(SessionPin.STATEMENT_OPTION);
        ByteBuf initDb = Unpooled.buffer().writeByte(Command.INIT_DB.code()).writeBytes(bytes("shop"));
        channel.writeInbound(new MySqlPacket(0, initDb));
        expectOk();
        assertThat(runner.calls).containsExactly("SET_OPTION", "INIT_DB");
    }

    @Test
    void resetConnectionForgetsTheSessionsStatementsAndSettings() {
        ClientStatement statement = prepared("SELECT 1", 0);
        query("SET @@session.shardgate_max_lag_ms = 250");
        expectOk();
        send(0x1F);
        expectOk();
        assertThat(handler.session().statements().find(statement.id())).isEmpty();
        assertThat(handler.session().maxLagMs()).isEmpty();
        assertThat(runner.calls).isEmpty();
    }

    private void changeUser(String user, byte[] authResponse) {
        ByteBuf payload = Unpooled.buffer().writeByte(Command.CHANGE_USER.code()).writeBytes(bytes(user)).writeByte(0)
                .writeByte(authResponse.length).writeBytes(authResponse).writeByte(0).writeShortLE(45)
                .writeBytes(bytes(NativePassword.PLUGIN_NAME)).writeByte(0);
        channel.writeInbound(new MySqlPacket(0, payload));
    }

    @Test
    void changeUserAuthenticatesWithTheGreetingsNonce() {
        ClientSession before = handler.session();
        changeUser("other", NativePassword.scramble(bytes("pw"), nonce));
        expectOk();
        ClientSession after = handler.session();
        assertThat(after).isNotSameAs(before);
        assertThat(after.user()).isEqualTo("other");
        assertThat(registry.find(after.connectionId())).contains(after);
        send(0x0E);
        expectOk();
    }

    @Test
    void aFailedChangeUserGets1045AndCloses() {
        changeUser("other", NativePassword.scramble(bytes("wrong"), nonce));
        ErrPacket error = expectError();
        assertThat(error.errno()).isEqualTo(1045);
        assertThat(error.message()).contains("'other'");
        channel.runPendingTasks();
        assertThat(channel.isOpen()).isFalse();
    }

    /** The seam to the backends: records each call and, unless holding, answers OK and ends the command. */
    private static final class FakeRunner implements StatementRunner {
        final List<String> calls = new ArrayList<>();
        CommandScope scope;
        Classification classification;
        boolean hold;
        private Command running;

        private void run(MySqlPacket packet, Command command, String call) {
            packet.release();
            calls.add(call);
            scope.busy();
            running = command;
            if (!hold) {
                finish();
            }
        }

        void finish() {
            if (!running.hasNoResponse()) {
                scope.writeOk(1);
            }
            scope.afterCommand();
        }

        private static String text(MySqlPacket packet) {
            ByteBuf payload = packet.payload();
            return payload.toString(payload.readerIndex() + 1, payload.readableBytes() - 1, StandardCharsets.UTF_8);
        }

        @Override
        public void forward(MySqlPacket packet, Command command) {
            run(packet, command, command.name());
        }

        @Override
        public void query(MySqlPacket packet, Classification classification, boolean needsLastInsertId,
                          TemporaryTableNames.Change temporaryTables, boolean readsDiagnostics) {
            this.classification = classification;
            run(packet, Command.QUERY, "QUERY " + text(packet));
        }

        @Override
        public void prepare(MySqlPacket packet, Classification classification, int id, String sql) {
            run(packet, Command.STMT_PREPARE, "STMT_PREPARE id=" + id + " " + sql);
        }

        @Override
        public void prepareFailed(Classification classification, int id, String sql, Throwable error) {
            calls.add("prepare failed " + id);
        }

        @Override
        public void statement(MySqlPacket packet, Command command, ClientStatement statement, boolean needsLastInsertId) {
            run(packet, command, command.name() + " #" + statement.id());
        }
    }
}
