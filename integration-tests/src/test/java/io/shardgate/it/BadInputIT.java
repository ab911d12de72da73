package io.shardgate.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Garbage on the wire, limits, and proof that nothing leaks and other sessions carry on. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputIT {
    private static final int CASES = 10_000;
    private static final int MAX_PACKET = 1024 * 1024;
    private ProxyFixture proxy;

    /** What a fuzz case did to the connection. */
    enum Outcome { ERR, CLOSED, REPLY, NO_REPLY_WE_CLOSED }

    @BeforeAll
    void start() {
        proxy = ProxyFixture.withOwnShard(Map.of(), "limits: { max_allowed_packet: " + MAX_PACKET
                + ", max_client_connections: 64, handshake_timeout_ms: 2000 }\n", "CREATE DATABASE fuzz");
    }

    @AfterAll
    void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void randomTruncatedAndOversizedPacketsBeforeAndAfterAuth() throws Exception {
        Map<Outcome, AtomicInteger> outcomes = new ConcurrentHashMap<>();
        for (Outcome o : Outcome.values()) {
            outcomes.put(o, new AtomicInteger());
        }
        List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        try (Connection bystander = proxy.mariadb("fuzz", "")) {
            bystander.createStatement().execute("CREATE TABLE t (id INT PRIMARY KEY)");
            ExecutorService pool = Executors.newFixedThreadPool(8);
            List<Future<?>> done = new ArrayList<>();
            for (int worker = 0; worker < 8; worker++) {
                int seed = worker;
                done.add(pool.submit(() -> {
                    Random random = new Random(seed);
                    for (int i = seed; i < CASES; i += 8) {
                        try {
                            outcomes.get(fuzzCase(random, i)).incrementAndGet();
                        } catch (Exception | AssertionError e) {
                            failures.add("case " + i + ": " + e);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            pool.shutdown();
            assertThat(failures).as("failed cases").isEmpty();
            // The bystander's session is untouched, and new clients work.
            try (ResultSet rows = bystander.createStatement().executeQuery("SELECT COUNT(*) FROM t")) {
                assertThat(rows.next()).isTrue();
            }
        }
        try (Connection fresh = proxy.mysql("fuzz", "sslMode=DISABLED"); ResultSet rows = fresh.createStatement()
                .executeQuery("SELECT 40 + 2")) {
            rows.next();
            assertThat(rows.getInt(1)).isEqualTo(42);
        }
        System.out.println("BadInputIT outcomes over " + CASES + " cases: " + new EnumMap<>(outcomes));
        assertThat(outcomes.get(Outcome.ERR).get()).isGreaterThan(CASES / 10);
        assertThat(outcomes.get(Outcome.CLOSED).get() + outcomes.get(Outcome.NO_REPLY_WE_CLOSED).get()).isPositive();
        awaitNoLeaks();
    }

    /** One case on its own connection: random bytes, a truncated packet or an oversized one, before or after login. */
    private Outcome fuzzCase(Random random, int index) throws Exception {
        boolean afterAuth = index % 2 == 1;
        try (RawClient client = new RawClient(proxy.port(), 5000)) {
            int sequence;
            if (afterAuth) {
                RawClient.Reply login = client.login(ProxyFixture.USER, ProxyFixture.PASSWORD);
                assertThat(login.kind()).isEqualTo(RawClient.Reply.Kind.PACKET);
                assertThat(login.isErr()).as("login works").isFalse();
                sequence = 0;
            } else {
                assertThat(client.readHandshake().kind()).isEqualTo(RawClient.Reply.Kind.PACKET);
                sequence = 1;
            }
            switch (index / 2 % 4) {
                case 0 -> {
                    // Random bytes: a random header and whatever follows.
                    byte[] junk = new byte[1 + random.nextInt(64)];
                    random.nextBytes(junk);
                    if (afterAuth) {
                        junk[0] = (byte) pickCommand(random);
                    }
                    client.write(sequence, junk);
                    if (afterAuth && hasNoResponse(junk[0])) {
                        return pingAfterSilentCommand(client);
                    }
                }
                case 1 -> {
                    // Truncated: the header promises more than is sent, then the client goes away.
                    byte[] part = new byte[random.nextInt(20)];
                    random.nextBytes(part);
                    int promised = part.length + 1 + random.nextInt(1000);
                    client.writeRaw(new byte[] {(byte) promised, (byte) (promised >> 8), 0, (byte) sequence});
                    client.writeRaw(part);
                    return Outcome.NO_REPLY_WE_CLOSED;
                }
                case 2 -> {
                    // Oversized: the header announces more than max_allowed_packet.
                    int length = MAX_PACKET + 1 + random.nextInt(0xFFFFFF - MAX_PACKET - 1);
                    client.writeRaw(new byte[] {(byte) length, (byte) (length >> 8), (byte) (length >> 16),
                            (byte) sequence, 3, 'x'});
                    RawClient.Reply reply = client.read();
                    assertThat(reply.isErr()).as("oversized packet gets an ERR").isTrue();
                    assertThat(reply.errno()).isEqualTo(1153);
                    assertThat(client.read().kind()).as("then a close").isEqualTo(RawClient.Reply.Kind.CLOSED);
                    return Outcome.ERR;
                }
                default -> {
                    // Random raw bytes, header included.
                    byte[] junk = new byte[4 + random.nextInt(60)];
                    random.nextBytes(junk);
                    junk[2] = 0;
                    client.writeRaw(junk);
                    int declared = (junk[0] & 0xFF) | (junk[1] & 0xFF) << 8;
                    if (declared > junk.length - 4) {
                        // Incomplete: the proxy rightly waits for the rest; the client gives up.
                        return Outcome.NO_REPLY_WE_CLOSED;
                    }
                    if (afterAuth && declared > 0 && hasNoResponse(junk[4])) {
                        return pingAfterSilentCommand(client);
                    }
                }
            }
            RawClient.Reply reply = client.read();
            return switch (reply.kind()) {
                case CLOSED -> Outcome.CLOSED;
                case TIMEOUT -> Outcome.NO_REPLY_WE_CLOSED;
                case PACKET -> reply.isErr() ? Outcome.ERR : Outcome.REPLY;
            };
        }
    }

    /** COM_STMT_SEND_LONG_DATA and COM_STMT_CLOSE have no response by protocol (QUIT closes). */
    private static boolean hasNoResponse(byte command) {
        return command == 0x18 || command == 0x19;
    }

    /** After a command without a response, a ping must still be answered. */
    private static Outcome pingAfterSilentCommand(RawClient client) throws Exception {
        client.write(0, new byte[] {0x0E});
        RawClient.Reply reply = client.read();
        assertThat(reply.kind()).as("ping after a silent command").isEqualTo(RawClient.Reply.Kind.PACKET);
        return reply.isErr() ? Outcome.ERR : Outcome.REPLY;
    }

    /** Any command byte but KILL (it could hit a neighbour by chance) and QUIT (it only closes). */
    private static int pickCommand(Random random) {
        while (true) {
            int command = random.nextInt(256);
            if (command != 0x0C && command != 0x01) {
                return command;
            }
        }
    }

    @Test
    void connectionPastTheLimitGets1040() throws Exception {
        List<Connection> held = new ArrayList<>();
        try {
            SQLException refused = null;
            for (int i = 0; i < 70 && refused == null; i++) {
                try {
                    held.add(DriverManager.getConnection(proxy.mariadbUrl("", "connectTimeout=5000"), "app", "app"));
                } catch (SQLException e) {
                    refused = e;
                }
            }
            assertThat((Throwable) refused).as("a connection was refused").isNotNull();
            assertThat(refused.getErrorCode()).isEqualTo(1040);
            assertThat(refused.getMessage()).contains("Too many connections");
            assertThat(held.size()).isLessThanOrEqualTo(64);
        } finally {
            for (Connection c : held) {
                c.close();
            }
        }
        awaitNoLeaks();
        try (Connection c = proxy.mariadb("", "")) {
            assertThat(c.isValid(5)).isTrue();
        }
    }

    @Test
    void unknownCommandGets1047AndTheConnectionStaysUsable() throws Exception {
        try (RawClient client = new RawClient(proxy.port(), 5000)) {
            assertThat(client.login("app", "app").isErr()).isFalse();
            client.write(0, new byte[] {0x12, 0, 0, 0, 0}); // COM_BINLOG_DUMP
            RawClient.Reply reply = client.read();
            assertThat(reply.isErr()).isTrue();
            assertThat(reply.errno()).isEqualTo(1047);
            client.write(0, new byte[] {0x0E}); // COM_PING
            RawClient.Reply ping = client.read();
            assertThat(ping.kind()).isEqualTo(RawClient.Reply.Kind.PACKET);
            assertThat(ping.payload()[0]).isEqualTo((byte) 0);
        }
        assertThatThrownBy(() -> DriverManager.getConnection(proxy.mariadbUrl("", ""), "nobody", "x"))
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1045));
    }

    @Test
    void silentClientIsDroppedAfterTheHandshakeTimeout() throws Exception {
        try (RawClient client = new RawClient(proxy.port(), 10_000)) {
            assertThat(client.readHandshake().kind()).isEqualTo(RawClient.Reply.Kind.PACKET);
            long start = System.nanoTime();
            RawClient.Reply reply = client.read();
            long waited = (System.nanoTime() - start) / 1_000_000;
            assertThat(reply.isErr()).isTrue();
            assertThat(reply.errno()).isEqualTo(1043);
            assertThat(waited).as("handshake_timeout_ms is 2000").isBetween(1500L, 6000L);
            assertThat(client.read().kind()).isEqualTo(RawClient.Reply.Kind.CLOSED);
        }
    }

    @Test
    void pingInsideATransactionReportsTheTransaction() throws Exception {
        try (RawClient client = new RawClient(proxy.port(), 5000)) {
            assertThat(client.login("app", "app").isErr()).isFalse();
            client.queryFirst("BEGIN");
            client.write(0, new byte[] {0x0E});
            RawClient.Reply inside = client.read();
            assertThat(inside.payload()[0]).isEqualTo((byte) 0);
            assertThat(okStatus(inside) & 1).as("SERVER_STATUS_IN_TRANS").isEqualTo(1);
            client.queryFirst("COMMIT");
            client.write(0, new byte[] {0x0E});
            RawClient.Reply after = client.read();
            assertThat(okStatus(after) & 1).isZero();
            assertThat(okStatus(after) & 2).as("SERVER_STATUS_AUTOCOMMIT").isEqualTo(2);
        }
    }

    /** Status flags of an OK packet whose affected-rows and insert-id are single bytes. */
    private static int okStatus(RawClient.Reply ok) {
        return (ok.payload()[3] & 0xFF) | (ok.payload()[4] & 0xFF) << 8;
    }

    @Test
    void changeUserSwitchesUserAndSchemaAndRefusesUnknownUsers() throws Exception {
        try (RawClient client = new RawClient(proxy.port(), 5000)) {
            assertThat(client.login("app", "app").isErr()).isFalse();
            client.queryFirst("SET @leftover = 1");
            RawClient.Reply changed = client.changeUser("app", "app", "fuzz");
            assertThat(changed.isErr()).as("change user is accepted").isFalse();
            assertThat(changed.payload()[0]).isEqualTo((byte) 0);
            assertThat(client.queryFirst("SELECT DATABASE()")).isEqualTo("fuzz");
            // A changed user starts a fresh session: nothing of the old one leaks through.
            assertThat(client.queryFirst("SELECT @leftover")).isEqualTo("NULL");
            RawClient.Reply refused = client.changeUser("mallory", "x", "");
            assertThat(refused.isErr()).isTrue();
            assertThat(refused.errno()).isEqualTo(1045);
            assertThat(client.read().kind()).isEqualTo(RawClient.Reply.Kind.CLOSED);
        }
    }

    /** Client slots and backend connections all come back once the clients are gone. */
    private void awaitNoLeaks() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        Pattern clients = Pattern.compile("(?m)^shardgate_client_connections (\\S+)");
        Pattern inUse = Pattern.compile("(?m)^shardgate_backend_connections\\{[^}]*state=\"in_use\"[^}]*} (\\S+)");
        long deadline = System.nanoTime() + 20_000_000_000L;
        String last = "";
        while (System.nanoTime() < deadline) {
            last = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.adminPort() + "/metrics"))
                    .header("Authorization", "Bearer " + ProxyFixture.ADMIN_TOKEN).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            Matcher c = clients.matcher(last);
            Matcher b = inUse.matcher(last);
            if (c.find() && b.find() && Double.parseDouble(c.group(1)) == 0 && Double.parseDouble(b.group(1)) == 0) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("client or backend connections leaked:\n" + last.lines()
                .filter(l -> l.startsWith("shardgate_client_connections ") || l.startsWith("shardgate_backend_connections"))
                .reduce("", (a, b) -> a + b + "\n"));
    }
}
