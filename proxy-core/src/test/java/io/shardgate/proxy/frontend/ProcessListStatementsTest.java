package io.shardgate.proxy.frontend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import io.shardgate.proxy.auth.NativePassword;
import io.shardgate.proxy.auth.RsaKeyPair;
import io.shardgate.proxy.config.UserConfig;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.ColumnDefinition;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.HandshakeResponse41;
import io.shardgate.proxy.protocol.HandshakeV10;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.Wire;
import io.shardgate.proxy.session.ClientStatement;
import io.shardgate.router.classify.Classification;
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
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SHOW PROCESSLIST and information_schema.PROCESSLIST through the real {@link FrontendHandler}s of
 * three logged-in connections (two of user app, one of user other), with a hand-written runner at
 * the seam to the backends.
 */
class ProcessListStatementsTest {
    private static RsaKeyPair rsa;

    private final List<EmbeddedChannel> channels = new ArrayList<>();
    private final List<FrontendHandler> handlers = new ArrayList<>();
    private final List<String> forwarded = new ArrayList<>();
    private FrontendContext context;

    @BeforeAll
    static void keys() {
        rsa = RsaKeyPair.generate(new SecureRandom());
    }

    @BeforeEach
    void logins() {
        context = TestFrontend.create(rsa, 10, Map.of(
                "app", UserConfig.withPassword("app", "app", false, UserConfig.NATIVE),
                "other", UserConfig.withPassword("other", "pw", false, UserConfig.NATIVE))).context();
        login("app", "app", "");
        login("app", "app", "shop");
        login("other", "pw", "");
    }

    @AfterEach
    void close() {
        channels.forEach(EmbeddedChannel::finishAndReleaseAll);
    }

    private void login(String user, String password, String schema) {
        ServerFacts facts = new ServerFacts("10.11.6-MariaDB", Map.of("INNODB", "DEFAULT"), Map.of(),
                Map.of("innodb_lock_wait_timeout", "50", "innodb_page_size", "16384"), Map.of(), Map.of());
        DdlGate ddlGate = new DdlGate(List.of("s0"), new DdlValidator(), shard -> InnoDbCapabilities.from(facts));
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
                FrontendHandler[] handler = new FrontendHandler[1];
                handler[0] = new FrontendHandler(context, new CommandRouter(context), login, new Runner(() -> handler[0]), ddlGate);
                handlers.add(handler[0]);
                return handler[0];
            }
        };
        EmbeddedChannel channel = new EmbeddedChannel(new ConnectionPhaseHandler(context, phase));
        MySqlPacket greeting = channel.readOutbound();
        byte[] nonce = HandshakeV10.decode(greeting.payload()).scramble();
        greeting.release();
        long capabilities = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_SECURE_CONNECTION | Capabilities.CLIENT_PLUGIN_AUTH
                | Capabilities.CLIENT_DEPRECATE_EOF | Capabilities.CLIENT_TRANSACTIONS
                | (schema.isEmpty() ? 0 : Capabilities.CLIENT_CONNECT_WITH_DB);
        HandshakeResponse41 response = new HandshakeResponse41(capabilities, 1 << 24, 45, user,
                NativePassword.scramble(password.getBytes(StandardCharsets.UTF_8), nonce), schema, NativePassword.PLUGIN_NAME, Map.of(), 0);
        channel.writeInbound(new MySqlPacket(1, response.encode(ByteBufAllocator.DEFAULT)));
        channel.runPendingTasks();
        MySqlPacket ok = channel.readOutbound();
        assertThat(ok.header()).as("login OK").isZero();
        ok.release();
        channels.add(channel);
    }

    private void query(int connection, String sql) {
        ByteBuf payload = Unpooled.buffer().writeByte(Command.QUERY.code()).writeBytes(sql.getBytes(StandardCharsets.UTF_8));
        channels.get(connection).writeInbound(new MySqlPacket(0, payload));
    }

    private long id(int connection) {
        return handlers.get(connection).session().connectionId();
    }

    /** A text result set: its column definitions, then its rows. */
    private record Result(List<ColumnDefinition> columns, List<List<String>> rows) {
    }

    private Result result(int connection) {
        EmbeddedChannel channel = channels.get(connection);
        MySqlPacket count = channel.readOutbound();
        int columns = (int) Wire.readLenencInt(count.payload());
        count.release();
        List<ColumnDefinition> definitions = new ArrayList<>();
        for (int i = 0; i < columns; i++) {
            MySqlPacket def = channel.readOutbound();
            definitions.add(ColumnDefinition.parse(def.payload()));
            def.release();
        }
        List<List<String>> rows = new ArrayList<>();
        for (MySqlPacket packet = channel.readOutbound(); packet != null; packet = channel.readOutbound()) {
            ByteBuf payload = packet.payload();
            if (payload.getUnsignedByte(payload.readerIndex()) == 0xFE && payload.readableBytes() < 9) {
                packet.release();
                break;
            }
            List<String> row = new ArrayList<>();
            for (int i = 0; i < columns; i++) {
                if (payload.getUnsignedByte(payload.readerIndex()) == 0xFB) {
                    payload.skipBytes(1);
                    row.add(null);
                } else {
                    row.add(Wire.readLenencString(payload, StandardCharsets.UTF_8));
                }
            }
            rows.add(row);
            packet.release();
        }
        return new Result(definitions, rows);
    }

    @Test
    void showProcesslistListsTheSessionsOfTheUserWithMariaDbsColumns() {
        query(0, "SHOW PROCESSLIST");
        Result result = result(0);
        assertThat(result.columns()).extracting(ColumnDefinition::name)
                .containsExactly("Id", "User", "Host", "db", "Command", "Time", "State", "Info", "Progress");
        assertThat(result.columns()).extracting(ColumnDefinition::type).containsExactly(
                ColumnDefinition.TYPE_LONGLONG, ColumnDefinition.TYPE_VAR_STRING, ColumnDefinition.TYPE_VAR_STRING,
                ColumnDefinition.TYPE_VAR_STRING, ColumnDefinition.TYPE_VAR_STRING, ColumnDefinition.TYPE_LONG,
                ColumnDefinition.TYPE_VAR_STRING, ColumnDefinition.TYPE_VAR_STRING, ColumnDefinition.TYPE_DOUBLE);
        assertThat(result.columns()).extracting(ColumnDefinition::length).containsExactly(11L, 512L, 256L, 256L, 64L, 7L, 120L, 400L, 7L);
        assertThat(result.columns()).extracting(ColumnDefinition::flags).containsExactly(129, 1, 1, 0, 1, 129, 0, 0, 129);
        assertThat(result.rows()).as("user app's two sessions, not other's").hasSize(2);
        List<String> own = result.rows().get(0);
        assertThat(own.get(0)).isEqualTo(Long.toString(id(0)));
        assertThat(own.subList(3, 9)).containsExactly(null, "Query", "0", "starting", "SHOW PROCESSLIST", "0.000");
        assertThat(own.get(1)).isEqualTo("app");
        List<String> other = result.rows().get(1);
        assertThat(other.get(0)).isEqualTo(Long.toString(id(1)));
        assertThat(other.subList(3, 9)).containsExactly("shop", "Sleep", "0", "", null, "0.000");
    }

    @Test
    void showFullProcesslistKeepsTheWholeStatement() {
        String sql = "SHOW FULL PROCESSLIST /* " + "x".repeat(120) + " */";
        query(0, sql);
        Result full = result(0);
        assertThat(full.columns().get(7).type()).isEqualTo(ColumnDefinition.TYPE_LONG_BLOB);
        assertThat(full.rows().get(0).get(7)).isEqualTo(sql);
        String cut = "SHOW PROCESSLIST /* " + "y".repeat(120) + " */";
        query(0, cut);
        assertThat(result(0).rows().get(0).get(7)).isEqualTo(cut.substring(0, 100));
    }

    @Test
    void aRunningCommandShowsItsStatementUntilItEnds() {
        Runner runner = (Runner) handlers.get(1).runner();
        runner.hold = true;
        query(1, "SELECT SLEEP(5)");
        query(0, "SHOW PROCESSLIST");
        List<String> running = result(0).rows().get(1);
        assertThat(running.subList(4, 8)).containsExactly("Query", "0", "Executing", "SELECT SLEEP(5)");
        runner.finish();
        query(0, "SHOW PROCESSLIST");
        assertThat(result(0).rows().get(1).subList(4, 8)).containsExactly("Sleep", "0", "", null);
    }

    @Test
    void informationSchemaReadsGoToABackendWithTheSessionsInPlaceOfTheTable() {
        query(0, "SELECT ID, INFO FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()");
        assertThat(forwarded).hasSize(1);
        String sent = forwarded.get(0);
        assertThat(sent).startsWith("SELECT ID, INFO FROM JSON_TABLE(").endsWith(" AS PROCESSLIST WHERE ID = " + id(0));
        String hex = sent.substring(sent.indexOf("x'") + 2, sent.indexOf("' USING"));
        String json = new String(HexFormat.of().parseHex(hex), StandardCharsets.UTF_8);
        assertThat(json).startsWith("[[" + id(0) + ",\"app\",")
                .contains("\"Query\",0,\"Filling schema table\",\"SELECT ID, INFO FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()\"")
                .contains("[" + id(1) + ",\"app\",").contains("\"shop\",\"Sleep\",0,\"\",null,")
                .doesNotContain("\"other\"");
    }

    @Test
    void otherInformationSchemaTablesAndMultiStatementsAreNotTouched() {
        query(0, "SELECT * FROM information_schema.TABLES");
        assertThat(forwarded).containsExactly("SELECT * FROM information_schema.TABLES");
    }

    @Test
    void aPreparedReadOfTheProcessListIsRefusedNotSentToABackend() {
        for (String sql : List.of("SELECT ID FROM information_schema.PROCESSLIST WHERE ID = ?", "SHOW PROCESSLIST")) {
            ByteBuf payload = Unpooled.buffer().writeByte(Command.STMT_PREPARE.code()).writeBytes(sql.getBytes(StandardCharsets.UTF_8));
            channels.get(0).writeInbound(new MySqlPacket(0, payload));
            MySqlPacket answer = channels.get(0).readOutbound();
            assertThat(answer.header()).as("ERR").isEqualTo(0xFF);
            io.shardgate.proxy.protocol.ErrPacket error = io.shardgate.proxy.protocol.ErrPacket.decode(answer.payload());
            answer.release();
            assertThat(error.errno()).isEqualTo(1235);
            assertThat(error.message()).contains("process list in a prepared statement");
        }
        assertThat(forwarded).isEmpty();
    }

    /** Ends each forwarded statement with an OK, unless held; records the statement's text. */
    private final class Runner implements StatementRunner {
        private final java.util.function.Supplier<FrontendHandler> scope;
        boolean hold;

        Runner(java.util.function.Supplier<FrontendHandler> scope) {
            this.scope = scope;
        }

        void finish() {
            scope.get().writeOk(1);
            scope.get().afterCommand();
        }

        private void run(MySqlPacket packet) {
            ByteBuf payload = packet.payload();
            forwarded.add(payload.toString(payload.readerIndex() + 1, payload.readableBytes() - 1, StandardCharsets.UTF_8));
            packet.release();
            scope.get().busy();
            if (!hold) {
                finish();
            }
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
