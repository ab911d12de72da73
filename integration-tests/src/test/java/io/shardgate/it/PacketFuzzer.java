package io.shardgate.it;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 16's fuzzer: valid packets of every command, before and after authentication, over plain
 * and zlib-compressed connections, mutated (bytes flipped, truncated, extended, wrong statement
 * ids, wrong lengths inside and in the header, wrong sequence ids, oversized length headers,
 * damaged compressed frames), against a real MariaDB behind the proxy.
 *
 * <p>Each case ends in an answer or a close within {@link #CASE_BOUND_MS}: after the mutated
 * packet a sync query ({@code SELECT 'token'}) must come back, or the proxy must close the
 * connection. Cases run on a few hundred connections, a few hundred cases each (a new connection
 * when the proxy closed one); then 24 clients send a burst of commands each and leave without
 * reading the answers (the hostile client). Throughout, a bystander session (its own user,
 * a user variable, an open transaction) keeps answering and keeps its state; at the end new
 * clients are served and {@code shardgate_backend_connections{state="in_use"}} comes back to what
 * the bystander alone holds.
 *
 * <p>{@link PacketFuzzIT} runs it against an unsharded proxy (10,000 cases), {@link ShardedPacketFuzzIT}
 * against a sharded one (an InnoDB and a MyRocks shard, 4,000 cases); both need a schema {@code fuzz}
 * with tables {@code t} (40 rows, ids 1 to 40), {@code w} (auto-increment) and {@code bystander}, and
 * {@link #LIMITS_AND_USERS} in the proxy's config.
 *
 * <p>Seeded: the seed is printed first; {@code -Dshardgate.fuzz.seed=N} replays a run's cases (the
 * workers' interleaving aside); {@code -Dshardgate.fuzz.cases=N} and
 * {@code -Dshardgate.fuzz.shardedCases=N} change the counts.
 */
final class PacketFuzzer {
    static final int CASES = Integer.getInteger("shardgate.fuzz.cases", 10_000);
    static final int SHARDED_CASES = Integer.getInteger("shardgate.fuzz.shardedCases", 4_000);
    private static final long SEED = Long.getLong("shardgate.fuzz.seed", System.currentTimeMillis());
    private static final int WORKERS = 4;
    /** Clients that send a burst of commands and leave without reading, after the cases. */
    private static final int FLOODS = 24;
    private static final int CASE_BOUND_MS = 5_000;
    private static final int MAX_PACKET = 1 << 20;
    private static final int POOL = 16;
    private static final String WATCHER = "watcher";
    /** A small pool, so that a leak shows as refused clients too; a second user for the bystander (no KILL can reach it). */
    static final String LIMITS_AND_USERS = "limits: { max_allowed_packet: " + MAX_PACKET
            + ", max_backend_connections: " + POOL + ", backend_acquire_timeout_ms: 3000, handshake_timeout_ms: 3000 }\n"
            + "users:\n  - { name: " + ProxyFixture.USER + ", password: " + ProxyFixture.PASSWORD + " }\n"
            + "  - { name: " + WATCHER + ", password: " + WATCHER + " }\n";

    /** Statements each fuzz connection prepares first, after COM_INIT_DB fuzz (the raw client logs in without a schema). */
    private static final String[] PREPARED = {
        "SELECT ?, ?",
        "SELECT id, v FROM t WHERE id > ?",
        "INSERT INTO w (v) VALUES (?)",
        "SELECT 1",
        "SELECT CONCAT(?, ?, ?)",
    };

    /** Texts for COM_QUERY and COM_STMT_PREPARE cases: plain, transactional and connection-pinning statements. */
    private static final String[] SQL = {
        "SELECT 1", "SELECT id, v FROM t", "SELECT ?", "SELECT id FROM t WHERE id = ?", "BEGIN", "COMMIT",
        "ROLLBACK", "SET @fz = 1", "SELECT @fz", "INSERT INTO w (v) VALUES ('q')", "SELECT * FROM w LIMIT 3",
        "SHOW WARNINGS", "SELECT SQL_CALC_FOUND_ROWS id FROM t LIMIT 1", "SELECT FOUND_ROWS()",
        "PREPARE sq FROM 'SELECT 1'", "EXECUTE sq", "DEALLOCATE PREPARE sq", "CREATE TEMPORARY TABLE tmp (a INT)",
        "DROP TEMPORARY TABLE IF EXISTS tmp", "DO GET_LOCK('fuzz', 0)", "DO RELEASE_ALL_LOCKS()", "SELECT 1/0",
        "SELEC garbage", "",
    };

    /** Field types bound in COM_STMT_EXECUTE: LONGLONG, DOUBLE, VAR_STRING, BLOB, TINY, DATETIME, DECIMAL. */
    private static final int[] TYPES = {0x08, 0x05, 0xFD, 0xFC, 0x01, 0x0C, 0xF6};

    enum Outcome { ANSWERED, CLOSED, WE_CLOSED, PRE_AUTH_ANSWERED, PRE_AUTH_CLOSED, PRE_AUTH_WE_CLOSED, FLOODED }

    private PacketFuzzer() {
    }

    /** Runs {@code cases} cases against {@code proxy} and asserts what the class comment says. */
    static void run(ProxyFixture proxy, int cases, boolean sharded) throws Exception {
        new FuzzRun(proxy, cases, sharded).run();
    }

    /** One fuzz run against one proxy: its workers, its bystander, its counts. */
    private static final class FuzzRun {
        private final ProxyFixture proxy;
        private final int cases;
        private final boolean sharded;
        private final Map<Outcome, AtomicInteger> outcomes = new ConcurrentHashMap<>();
        private final Map<Integer, AtomicInteger> errnos = new ConcurrentHashMap<>();
        private final List<String> failures = Collections.synchronizedList(new ArrayList<>());

        FuzzRun(ProxyFixture proxy, int cases, boolean sharded) {
            this.proxy = proxy;
            this.cases = cases;
            this.sharded = sharded;
        }

        void run() throws Exception {
            String name = sharded ? "ShardedPacketFuzzIT" : "PacketFuzzIT";
            System.out.println(name + ": seed " + SEED + ", " + cases + " cases (replay with -Dshardgate.fuzz.seed=" + SEED + ")");
            for (Outcome outcome : Outcome.values()) {
                outcomes.put(outcome, new AtomicInteger());
            }
            long started = System.nanoTime();
            try (Connection bystander = DriverManager.getConnection(proxy.mariadbUrl("fuzz", "socketTimeout=20000"), WATCHER, WATCHER)) {
                bystander.setAutoCommit(false);
                try (Statement statement = bystander.createStatement()) {
                    statement.execute("SET @bystander = 'untouched'");
                    statement.execute("INSERT INTO bystander VALUES (1)");
                }
                checkBystander(bystander);
                int baseline = inUse(proxy);
                if (!sharded) {
                    assertThat(baseline).as("the bystander's open transaction holds one backend connection").isEqualTo(1);
                }

                ExecutorService pool = Executors.newFixedThreadPool(WORKERS);
                List<Future<?>> workers = new ArrayList<>();
                for (int w = 0; w < WORKERS; w++) {
                    int worker = w;
                    workers.add(pool.submit(() -> {
                        runWorker(worker);
                        return null;
                    }));
                }
                pool.shutdown();
                // The bystander keeps answering, with its variable and its transaction, while the fuzz runs.
                int checks = 0;
                while (!pool.awaitTermination(200, TimeUnit.MILLISECONDS)) {
                    checkBystander(bystander);
                    checks++;
                    assertThat(System.nanoTime() - started).as("fuzz run time").isLessThan(TimeUnit.MINUTES.toNanos(10));
                }
                for (Future<?> worker : workers) {
                    worker.get();
                }
                checkBystander(bystander);
                flood();
                checkBystander(bystander);
                System.out.println(name + ": " + cases + " cases in " + (System.nanoTime() - started) / 1_000_000 + " ms, outcomes "
                        + outcomes + ", first-answer errnos " + new TreeMap<>(errnos) + ", bystander checked " + (checks + 1) + " times");
                // Sharded, the bystander's transaction may also hold its session connection now, besides its branch.
                String leak = sharded ? null : inUseProblem(proxy, baseline);
                System.out.println(name + ": backend connections in use after the fuzz: " + inUse(proxy) + " (baseline " + baseline + ")");
                if (!failures.isEmpty()) {
                    // Whether anything leaked is worth knowing either way: every client gone, is any backend connection still in use?
                    bystander.rollback();
                    bystander.close();
                    String atEnd = inUseProblem(proxy, 0);
                    throw new AssertionError("failed cases (seed " + SEED + "): " + failures + (atEnd == null
                            ? "; with every client gone no backend connection was in use" : "; and with every client gone " + atEnd));
                }
                assertThat(leak).as("backend connections after the fuzz").isNull();
                assertThat(outcomes.get(Outcome.ANSWERED).get()).as("cases answered").isGreaterThan(cases / 2);
                assertThat(outcomes.get(Outcome.CLOSED).get()).as("cases the proxy ended with a close").isPositive();
                assertThat(errnos).as("malformed statement commands get their own errors").containsKeys(1243, 1210, 1835, 1156);

                newClientsAreServed();
                if (!sharded) {
                    awaitInUse(proxy, baseline);
                }
                try (Connection other = proxy.mariadb("fuzz", ""); Statement statement = other.createStatement()) {
                    assertThat(first(statement, "SELECT COUNT(*) FROM bystander")).as("the bystander's row is not committed yet")
                            .isEqualTo("0");
                }
                bystander.commit();
            }
            try (Connection check = proxy.mariadb("fuzz", ""); ResultSet rows = check.createStatement()
                    .executeQuery("SELECT COUNT(*) FROM bystander")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getInt(1)).as("the bystander's transaction committed").isEqualTo(1);
            }
            awaitInUse(proxy, 0);
        }

        private void checkBystander(Connection bystander) throws Exception {
            try (Statement statement = bystander.createStatement()) {
                assertThat(first(statement, "SELECT @bystander")).as("bystander's user variable").isEqualTo("untouched");
                assertThat(first(statement, "SELECT COUNT(*) FROM bystander")).as("bystander sees its own uncommitted row")
                        .isEqualTo("1");
                if (!sharded) {
                    // Sharded, the transaction lives on the shard branches, not on the session's own connection.
                    assertThat(first(statement, "SELECT @@in_transaction")).as("bystander's transaction is open").isEqualTo("1");
                }
            }
        }

        private static String first(Statement statement, String sql) throws Exception {
            try (ResultSet rows = statement.executeQuery(sql)) {
                assertThat(rows.next()).as(sql).isTrue();
                return rows.getString(1);
            }
        }

        private void newClientsAreServed() throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(8);
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                int n = i;
                answers.add(pool.submit(() -> {
                    try (Connection fresh = proxy.mariadb("fuzz", "connectTimeout=10000&socketTimeout=10000");
                         PreparedStatement statement = fresh.prepareStatement("SELECT COUNT(*) FROM t WHERE id > ?")) {
                        statement.setInt(1, n);
                        try (ResultSet rows = statement.executeQuery()) {
                            rows.next();
                            return rows.getInt(1);
                        }
                    }
                }));
            }
            pool.shutdown();
            for (int i = 0; i < answers.size(); i++) {
                assertThat(answers.get(i).get(30, TimeUnit.SECONDS)).as("new client " + i).isEqualTo(40 - i);
            }
        }

        // ---------------------------------------------------------------- the workers

        private void runWorker(int worker) {
            Random random = new Random(SEED * 31 + worker);
            FuzzSession session = null;
            int share = cases / WORKERS + (worker < cases % WORKERS ? 1 : 0);
            for (int n = 0; n < share && failures.size() < 20; n++) {
                String id = worker + "." + n;
                try {
                    if (random.nextInt(10) == 0) {
                        outcomes.get(preAuthCase(random, id)).incrementAndGet();
                        continue;
                    }
                    if (session == null || session.casesLeft-- <= 0) {
                        if (session != null) {
                            session.close(random.nextBoolean());
                        }
                        session = new FuzzSession(random.nextInt(3) == 0, 100 + random.nextInt(300));
                    }
                    Outcome outcome = session.fuzz(random, id);
                    outcomes.get(outcome).incrementAndGet();
                    if (outcome != Outcome.ANSWERED || session.ended) {
                        session.close(false);
                        session = null;
                    }
                } catch (Exception | AssertionError e) {
                    failures.add("case " + id + " (seed " + SEED + "): " + e);
                    if (session != null) {
                        session.close(false);
                        session = null;
                    }
                }
            }
            if (session != null) {
                session.close(true);
            }
        }

        /** A mutated HandshakeResponse41 (or SSL request, or junk) on a fresh connection. */
        /** {@link #FLOODS} hostile clients at once, after the cases (they may slow everyone down: no bound applies). */
        private void flood() throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(WORKERS);
            List<Future<Outcome>> floods = new ArrayList<>();
            for (int i = 0; i < FLOODS; i++) {
                Random random = new Random(SEED * 17 + i);
                floods.add(pool.submit(() -> floodCase(random)));
            }
            pool.shutdown();
            for (int i = 0; i < floods.size(); i++) {
                try {
                    outcomes.get(floods.get(i).get(2, TimeUnit.MINUTES)).incrementAndGet();
                } catch (java.util.concurrent.ExecutionException e) {
                    failures.add("flood " + i + " (seed " + SEED + "): " + e.getCause());
                }
            }
        }

        /**
         * The hostile client of the issue: a burst of commands sent without reading a byte of the
         * answers (large results and statement commands naming no statement), then a close. The
         * proxy's socket to it fills up, so relays pause their backend connections for it, and
         * must give them back when it is gone.
         */
        private Outcome floodCase(Random random) throws Exception {
            try (RawClient client = new RawClient(proxy.port(), CASE_BOUND_MS)) {
                RawClient.Reply login = client.login(ProxyFixture.USER, ProxyFixture.PASSWORD, random.nextBoolean());
                assertThat(login.isErr()).as("flood login: " + login).isFalse();
                client.write(0, command(0x02, "fuzz".getBytes(StandardCharsets.UTF_8)));
                RawClient.Reply initDb = client.read();
                assertThat(initDb.isErr()).as("flood COM_INIT_DB: " + initDb).isFalse();
                long start = System.nanoTime();
                try {
                    for (int i = 0; i < 2000 && elapsedMs(start) < 2000; i++) {
                        String sql = switch (random.nextInt(3)) {
                            case 0 -> "SELECT REPEAT('x', 60000) FROM t WHERE id = 5";
                            case 1 -> "SELECT id, v, REPEAT('y', 200) FROM t";
                            default -> null;
                        };
                        client.write(0, sql != null ? command(0x03, sql.getBytes(StandardCharsets.UTF_8))
                                : statementCommand(random.nextBoolean() ? 0x17 : 0x1C, 100_000 + random.nextInt(1000)));
                    }
                } catch (java.io.IOException e) {
                    // The proxy may close on it: that ends the flood as well.
                }
            }
            return Outcome.FLOODED;
        }

        private Outcome preAuthCase(Random random, String id) throws Exception {
            try (RawClient client = new RawClient(proxy.port(), CASE_BOUND_MS)) {
                assertThat(client.readHandshake().kind()).isEqualTo(RawClient.Reply.Kind.PACKET);
                byte[] response = client.handshakeResponse(ProxyFixture.USER, ProxyFixture.PASSWORD,
                        random.nextBoolean() ? RawClient.CLIENT_COMPRESS : 0);
                int sequence = 1;
                int mutation = random.nextInt(8);
                switch (mutation) {
                    case 0 -> response = flip(random, response);
                    case 1 -> response = Arrays.copyOf(response, random.nextInt(response.length));
                    case 2 -> response = extend(random, response);
                    case 3 -> sequence = random.nextInt(256);
                    case 4 -> {
                        // Frame header promises more than is sent: the proxy rightly waits; the client gives up.
                        client.writeRaw(header(response.length + 1 + random.nextInt(100), sequence));
                        client.writeRaw(Arrays.copyOf(response, random.nextInt(response.length)));
                        return Outcome.PRE_AUTH_WE_CLOSED;
                    }
                    case 5 -> {
                        client.writeRaw(header(MAX_PACKET + 1 + random.nextInt(0xFFFFFF - MAX_PACKET - 1), sequence));
                        expectTooLarge(client, id);
                        return Outcome.PRE_AUTH_CLOSED;
                    }
                    case 6 -> {
                        response = new byte[random.nextInt(80)];
                        random.nextBytes(response);
                    }
                    default -> response = flip(random, flip(random, response));
                }
                long start = System.nanoTime();
                client.write(sequence, response);
                RawClient.Reply reply = client.read();
                assertThat(reply.kind()).as("case " + id + ": a pre-auth answer or a close within " + CASE_BOUND_MS
                                + " ms (mutation " + mutation + ", sequence " + sequence + ", bytes " + hex(response) + ")")
                        .isNotEqualTo(RawClient.Reply.Kind.TIMEOUT);
                assertThat(elapsedMs(start)).isLessThan(CASE_BOUND_MS);
                return reply.kind() == RawClient.Reply.Kind.CLOSED ? Outcome.PRE_AUTH_CLOSED : Outcome.PRE_AUTH_ANSWERED;
            }
        }

        private static Outcome expectTooLarge(RawClient client, String id) {
            RawClient.Reply reply = readQuietly(client);
            assertThat(reply.isErr()).as("case " + id + ": an oversized length header gets an ERR").isTrue();
            assertThat(reply.errno()).isEqualTo(1153);
            assertThat(readQuietly(client).kind()).as("case " + id + ": then a close").isEqualTo(RawClient.Reply.Kind.CLOSED);
            return Outcome.CLOSED;
        }

        private static RawClient.Reply readQuietly(RawClient client) {
            try {
                return client.read();
            } catch (java.io.IOException e) {
                return new RawClient.Reply(RawClient.Reply.Kind.CLOSED, -1, new byte[0]);
            }
        }


        /** One logged-in fuzz connection and the statements it prepared. */
        private final class FuzzSession {
            private final RawClient client;
            private final List<Prepared> statements = new ArrayList<>();
            private final List<Integer> closedIds = new ArrayList<>();
            private int casesLeft;
            private boolean ended;
            private int syncs;

            FuzzSession(boolean compress, int cases) throws Exception {
                this.casesLeft = cases;
                client = new RawClient(proxy.port(), CASE_BOUND_MS);
                RawClient.Reply login = client.login(ProxyFixture.USER, ProxyFixture.PASSWORD, compress);
                assertThat(login.kind()).as("login").isEqualTo(RawClient.Reply.Kind.PACKET);
                assertThat(login.isErr()).as("login works: " + login).isFalse();
                assertThat(client.compressed()).isEqualTo(compress);
                client.write(0, command(0x02, "fuzz".getBytes(StandardCharsets.UTF_8))); // COM_INIT_DB
                RawClient.Reply schema = client.read();
                assertThat(schema.isErr()).as("COM_INIT_DB fuzz: " + schema).isFalse();
                for (String sql : PREPARED) {
                    client.write(0, command(0x16, sql.getBytes(StandardCharsets.UTF_8)));
                    RawClient.Reply ok = client.read();
                    assertThat(ok.kind()).isEqualTo(RawClient.Reply.Kind.PACKET);
                    assertThat(ok.isErr()).as("prepare " + sql + ": " + ok).isFalse();
                    Prepared prepared = prepareOk(ok.payload());
                    int columns = (ok.payload()[5] & 0xFF) | (ok.payload()[6] & 0xFF) << 8;
                    for (int i = 0; i < prepared.parameters() + columns; i++) {
                        client.read();
                    }
                    statements.add(prepared);
                }
            }

            void close(boolean quit) {
                try {
                    if (quit) {
                        client.write(0, new byte[] {0x01});
                    }
                    client.close();
                } catch (java.io.IOException e) {
                    // Gone already.
                }
            }

            /** One case: a packet built valid, maybe mutated, then a sync query; the answer or a close within the bound. */
            Outcome fuzz(Random random, String id) throws Exception {
                Built built = build(random);
                byte[] payload = built.payload;
                int sequence = 0;
                String mutation = "none";
                int pick = random.nextInt(100);
                if (pick < 20) {
                    // Valid as built.
                } else if (pick < 40) {
                    payload = flip(random, payload);
                    mutation = "flip";
                } else if (pick < 55) {
                    payload = Arrays.copyOf(payload, random.nextInt(payload.length + 1));
                    mutation = "truncate";
                } else if (pick < 65) {
                    payload = extend(random, payload);
                    mutation = "extend";
                } else if (pick < 75 && payload.length >= 5 && isStatementCommand(payload[0])) {
                    putInt(payload, 1, wrongId(random));
                    mutation = "wrong id";
                } else if (pick < 82 && payload.length > 6) {
                    payload = overlongLength(random, payload);
                    mutation = "over-long length";
                } else if (pick < 88) {
                    sequence = 1 + random.nextInt(255);
                    mutation = "sequence " + sequence;
                } else if (pick < 91) {
                    // Frame header promises more than is sent: the proxy waits for the rest; the client gives up.
                    client.writeRaw(concat(header(payload.length + 1 + random.nextInt(200), 0), payload));
                    return Outcome.WE_CLOSED;
                } else if (pick < 93 && payload.length > 1) {
                    // Frame header promises less: the rest reads as further packets of any shape; the client gives up.
                    client.writeRaw(concat(header(random.nextInt(payload.length), 0), payload));
                    readFor(300);
                    return Outcome.WE_CLOSED;
                } else if (pick < 95) {
                    client.writeRaw(header(MAX_PACKET + 1 + random.nextInt(0xFFFFFF - MAX_PACKET - 1), 0));
                    return expectTooLarge(client, id);
                } else if (pick < 97 && client.compressed()) {
                    damagedFrame(random, payload);
                    readFor(500);
                    return Outcome.WE_CLOSED;
                } else {
                    payload = flip(random, flip(random, payload));
                    mutation = "flip twice";
                }
                String what = "case " + id + " (" + built.description + ", " + mutation + ", " + (client.compressed() ? "zlib" : "plain")
                        + ", bytes " + hex(payload) + ")";
                long start = System.nanoTime();
                client.write(sequence, payload);
                if (payload.length > 0 && (payload[0] == 0x1F || payload[0] == 0x11)) {
                    ended = true; // COM_RESET_CONNECTION and COM_CHANGE_USER forget the prepared statements: start afresh after this
                }
                return sync(what, start, payload.length > 0 && payload[0] == 0x16);
            }

            /** Sends {@code SELECT 'token'} and reads until its row comes back (answered) or the connection closes. */
            private Outcome sync(String what, long start, boolean prepare) throws Exception {
                String token = "sync-" + what.hashCode() + "-" + syncs++;
                client.write(0, command(0x03, ("SELECT '" + token + "' AS s").getBytes(StandardCharsets.UTF_8)));
                byte[] tokenBytes = token.getBytes(StandardCharsets.UTF_8);
                boolean first = true;
                List<String> errors = new ArrayList<>();
                while (true) {
                    int left = CASE_BOUND_MS - (int) elapsedMs(start);
                    RawClient.Reply reply;
                    if (left <= 0) {
                        reply = new RawClient.Reply(RawClient.Reply.Kind.TIMEOUT, -1, new byte[0]);
                    } else {
                        client.timeout(left);
                        reply = client.read();
                    }
                    switch (reply.kind()) {
                        case CLOSED -> {
                            return Outcome.CLOSED;
                        }
                        case TIMEOUT -> {
                            dumpThreadsOnce();
                            throw new AssertionError(what + ": no answer within " + CASE_BOUND_MS + " ms"
                                    + (errors.isEmpty() ? "" : "; errors on the way: " + errors) + "; pools then: "
                                    + metrics(proxy).lines().filter(l -> l.startsWith("shardgate_backend_connections"))
                                    .map(l -> l.replaceAll("address=\"[^\"]*\",", "")).toList());
                        }
                        default -> {
                        }
                    }
                    byte[] p = reply.payload();
                    if (reply.isErr() && p.length > 9) {
                        errors.add(reply.errno() + " " + new String(p, 9, p.length - 9, StandardCharsets.UTF_8));
                    }
                    if (first) {
                        first = false;
                        if (reply.isErr()) {
                            errnos.computeIfAbsent(reply.errno(), k -> new AtomicInteger()).incrementAndGet();
                        } else if (prepare && p.length == 12 && p[0] == 0) {
                            statements.add(prepareOk(p));
                        }
                    }
                    if (contains(p, tokenBytes)) {
                        RawClient.Reply end = client.read();
                        assertThat(end.kind()).as(what + ": the sync result's end").isEqualTo(RawClient.Reply.Kind.PACKET);
                        assertThat(end.payload()[0] & 0xFF).as(what + ": the sync result's end").isEqualTo(0xFE);
                        return Outcome.ANSWERED;
                    }
                    if (reply.isErr() && reply.errno() == 1429) {
                        throw new AssertionError(what + ": " + new String(p, 9, p.length - 9, StandardCharsets.UTF_8));
                    }
                }
            }

            private void readFor(int millis) throws Exception {
                long start = System.nanoTime();
                while (elapsedMs(start) < millis) {
                    client.timeout(millis - (int) elapsedMs(start));
                    if (client.read().kind() != RawClient.Reply.Kind.PACKET) {
                        return;
                    }
                }
            }

            /** A compressed frame around {@code payload} with its body or uncompressed length damaged. */
            private void damagedFrame(Random random, byte[] payload) throws Exception {
                byte[] packet = concat(header(payload.length, 0), payload);
                byte[] frame = RawClient.frame(random.nextInt(3) == 0 ? 1 + random.nextInt(255) : 0, packet);
                if (random.nextBoolean() && frame.length > 7) {
                    int at = 7 + random.nextInt(frame.length - 7);
                    frame[at] ^= (byte) (1 + random.nextInt(255));
                } else {
                    int length = (frame[4] & 0xFF) | (frame[5] & 0xFF) << 8 | (frame[6] & 0xFF) << 16;
                    int wrong = Math.max(1, length + (random.nextBoolean() ? 1 : -1) * (1 + random.nextInt(20)));
                    frame[4] = (byte) wrong;
                    frame[5] = (byte) (wrong >> 8);
                    frame[6] = (byte) (wrong >> 16);
                }
                client.writeWire(frame);
            }

            private int wrongId(Random random) {
                return switch (random.nextInt(5)) {
                    case 0 -> 0;
                    case 1 -> -1; // 0xFFFFFFFF: MariaDB's "the statement prepared last"
                    case 2 -> closedIds.isEmpty() ? 1_000_000 : closedIds.get(random.nextInt(closedIds.size()));
                    case 3 -> statements.isEmpty() ? 7 : statements.get(random.nextInt(statements.size())).id() + 1000;
                    default -> random.nextInt();
                };
            }

            /** A valid packet of a random command, for this connection's statements. */
            private Built build(Random random) {
                Prepared statement = statements.isEmpty() ? new Prepared(1, 0) : statements.get(random.nextInt(statements.size()));
                int kind = random.nextInt(100);
                if (kind < 25) {
                    return execute(random, statement);
                }
                if (kind < 35) {
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    out.write(0x1C);
                    writeInt(out, statement.id());
                    writeInt(out, 1 + random.nextInt(20));
                    return new Built("COM_STMT_FETCH " + statement, out.toByteArray());
                }
                if (kind < 45) {
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    out.write(0x18);
                    writeInt(out, statement.id());
                    int parameter = random.nextInt(Math.max(1, statement.parameters() + 1));
                    out.write(parameter);
                    out.write(parameter >> 8);
                    byte[] data = new byte[random.nextInt(64)];
                    random.nextBytes(data);
                    out.writeBytes(data);
                    return new Built("COM_STMT_SEND_LONG_DATA " + statement, out.toByteArray());
                }
                if (kind < 50) {
                    if (random.nextInt(4) == 0 && statements.size() > 1) {
                        statements.remove(statement);
                        closedIds.add(statement.id());
                    }
                    return new Built("COM_STMT_CLOSE " + statement, statementCommand(0x19, statement.id()));
                }
                if (kind < 56) {
                    return new Built("COM_STMT_RESET " + statement, statementCommand(0x1A, statement.id()));
                }
                if (kind < 61) {
                    return bulk(random, statement);
                }
                if (kind < 69) {
                    String sql = SQL[random.nextInt(SQL.length)];
                    return new Built("COM_STMT_PREPARE " + sql, command(0x16, sql.getBytes(StandardCharsets.UTF_8)));
                }
                if (kind < 82) {
                    String sql = SQL[random.nextInt(SQL.length)].replace("?", "1");
                    return new Built("COM_QUERY " + sql, command(0x03, sql.getBytes(StandardCharsets.UTF_8)));
                }
                return switch (kind) {
                    case 82, 83 -> new Built("COM_PING", new byte[] {0x0E});
                    case 84 -> new Built("COM_INIT_DB", command(0x02, "fuzz".getBytes(StandardCharsets.UTF_8)));
                    case 85 -> new Built("COM_FIELD_LIST", command(0x04, "fuzz.t\0".getBytes(StandardCharsets.UTF_8)));
                    case 86 -> new Built("COM_SET_OPTION", new byte[] {0x1B, (byte) random.nextInt(2), 0});
                    case 87 -> new Built("COM_STATISTICS", new byte[] {0x09});
                    case 88 -> new Built("COM_RESET_CONNECTION", new byte[] {0x1F});
                    case 89 -> new Built("empty packet", new byte[0]);
                    case 90 -> new Built("COM_QUIT", new byte[] {0x01});
                    case 91 -> new Built("COM_CHANGE_USER", changeUser());
                    default -> {
                        int code = unknownCommand(random);
                        byte[] rest = new byte[random.nextInt(16)];
                        random.nextBytes(rest);
                        yield new Built("command 0x" + Integer.toHexString(code), concat(new byte[] {(byte) code}, rest));
                    }
                };
            }

            private byte[] changeUser() {
                byte[] user = ProxyFixture.USER.getBytes(StandardCharsets.UTF_8);
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                out.write(0x11);
                out.writeBytes(user);
                out.write(0);
                out.write(0); // no password: denied, and the connection closes
                out.write(0); // no schema
                return out.toByteArray();
            }

            private Built execute(Random random, Prepared statement) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                out.write(0x17);
                writeInt(out, statement.id());
                out.write(random.nextInt(4) == 0 ? 1 : 0); // CURSOR_TYPE_READ_ONLY now and then
                writeInt(out, 1);
                int n = statement.parameters();
                if (n > 0) {
                    byte[] nulls = new byte[(n + 7) / 8];
                    int[] types = new int[n];
                    for (int i = 0; i < n; i++) {
                        types[i] = TYPES[random.nextInt(TYPES.length)];
                        if (random.nextInt(8) == 0) {
                            nulls[i / 8] |= (byte) (1 << (i % 8));
                        }
                    }
                    out.writeBytes(nulls);
                    boolean sendTypes = random.nextInt(5) != 0;
                    out.write(sendTypes ? 1 : 0);
                    if (sendTypes) {
                        for (int type : types) {
                            out.write(type);
                            out.write(0);
                        }
                    }
                    for (int i = 0; i < n; i++) {
                        if ((nulls[i / 8] & 1 << (i % 8)) == 0) {
                            value(random, out, types[i]);
                        }
                    }
                }
                return new Built("COM_STMT_EXECUTE " + statement, out.toByteArray());
            }

            private Built bulk(Random random, Prepared statement) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                out.write(0xFA);
                writeInt(out, statement.id());
                out.write(0x80); // STMT_BULK_FLAG_SEND_TYPES_TO_SERVER
                out.write(0);
                for (int i = 0; i < statement.parameters(); i++) {
                    out.write(0x08);
                    out.write(0);
                }
                for (int row = 0; row < 1 + random.nextInt(3); row++) {
                    for (int i = 0; i < statement.parameters(); i++) {
                        out.write(0); // indicator: a value follows
                        writeLong(out, random.nextInt(100));
                    }
                }
                return new Built("COM_STMT_BULK_EXECUTE " + statement, out.toByteArray());
            }
        }
    }

    private record Built(String description, byte[] payload) {
    }

    /** A prepared statement of a fuzz connection: its id and parameter count. */
    private record Prepared(int id, int parameters) {
    }

    private static void value(Random random, ByteArrayOutputStream out, int type) {
        switch (type) {
            case 0x08 -> writeLong(out, random.nextLong());
            case 0x05 -> writeLong(out, Double.doubleToLongBits(random.nextDouble()));
            case 0x01 -> out.write(random.nextInt(256));
            case 0x0C -> out.writeBytes(new byte[] {7, (byte) 0xE8, 0x07, 3, 14, 15, 9, 26});
            case 0xF6 -> lenenc(out, "12.50".getBytes(StandardCharsets.US_ASCII));
            default -> {
                byte[] text = new byte[random.nextInt(40)];
                for (int i = 0; i < text.length; i++) {
                    text[i] = (byte) ('a' + random.nextInt(26));
                }
                lenenc(out, text);
            }
        }
    }

    // ---------------------------------------------------------------- mutations and bytes

    private static byte[] flip(Random random, byte[] bytes) {
        if (bytes.length == 0) {
            return new byte[] {(byte) random.nextInt(256)};
        }
        byte[] out = bytes.clone();
        for (int i = 0; i < 1 + random.nextInt(4); i++) {
            // The command byte is kept mostly: flipping it only tests the unknown-command path again.
            int at = random.nextInt(8) == 0 || out.length == 1 ? random.nextInt(out.length) : 1 + random.nextInt(out.length - 1);
            out[at] ^= (byte) (1 + random.nextInt(255));
            if (at == 0 && (out[0] == 0x0C || out[0] == 0x08)) {
                out[0] = 0x0E; // never a random KILL (it could hit another worker) or SHUTDOWN
            }
        }
        return out;
    }

    private static byte[] extend(Random random, byte[] bytes) {
        byte[] more = new byte[1 + random.nextInt(64)];
        random.nextBytes(more);
        return concat(bytes, more);
    }

    /** Writes a length-encoded integer that promises far more bytes than follow, somewhere past the statement id. */
    private static byte[] overlongLength(Random random, byte[] bytes) {
        int at = 5 + random.nextInt(bytes.length - 5);
        byte[] out = Arrays.copyOf(bytes, Math.max(bytes.length, at + 9));
        switch (random.nextInt(3)) {
            case 0 -> out[at] = (byte) 0xFC;
            case 1 -> out[at] = (byte) 0xFD;
            default -> out[at] = (byte) 0xFE;
        }
        for (int i = at + 1; i < at + 9; i++) {
            out[i] = (byte) 0xFF;
        }
        return out;
    }

    private static boolean isStatementCommand(byte command) {
        int code = command & 0xFF;
        return code >= 0x17 && code <= 0x1A || code == 0x1C || code == 0xFA;
    }

    private static int unknownCommand(Random random) {
        int[] codes = {0x00, 0x05, 0x06, 0x07, 0x0A, 0x0B, 0x0F, 0x10, 0x12, 0x13, 0x14, 0x15, 0x1D, 0x1E, 0x20, 0x7F, 0xF9, 0xFB, 0xFE, 0xFF};
        return codes[random.nextInt(codes.length)];
    }

    private static Prepared prepareOk(byte[] ok) {
        int id = (ok[1] & 0xFF) | (ok[2] & 0xFF) << 8 | (ok[3] & 0xFF) << 16 | (ok[4] & 0xFF) << 24;
        return new Prepared(id, (ok[7] & 0xFF) | (ok[8] & 0xFF) << 8);
    }

    private static byte[] statementCommand(int command, int id) {
        byte[] out = new byte[5];
        out[0] = (byte) command;
        putInt(out, 1, id);
        return out;
    }

    private static byte[] command(int command, byte[] argument) {
        return concat(new byte[] {(byte) command}, argument);
    }

    private static byte[] header(int length, int sequence) {
        return new byte[] {(byte) length, (byte) (length >> 8), (byte) (length >> 16), (byte) sequence};
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >> 8);
        b[at + 2] = (byte) (v >> 16);
        b[at + 3] = (byte) (v >> 24);
    }

    private static void writeInt(ByteArrayOutputStream out, int v) {
        out.write(v);
        out.write(v >> 8);
        out.write(v >> 16);
        out.write(v >> 24);
    }

    private static void writeLong(ByteArrayOutputStream out, long v) {
        for (int i = 0; i < 8; i++) {
            out.write((int) (v >> (8 * i)));
        }
    }

    private static void lenenc(ByteArrayOutputStream out, byte[] data) {
        out.write(data.length); // all shorter than 251
        out.writeBytes(data);
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < Math.min(bytes.length, 48); i++) {
            out.append(String.format("%02x", bytes[i] & 0xFF));
        }
        return bytes.length > 48 ? out + "...(" + bytes.length + ")" : out.toString();
    }

    private static long elapsedMs(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    private static final java.util.concurrent.atomic.AtomicBoolean DUMPED = new java.util.concurrent.atomic.AtomicBoolean();

    /** At the first hang, what the proxy's threads (it runs in this JVM) were doing: for the report. */
    private static void dumpThreadsOnce() {
        if (!DUMPED.compareAndSet(false, true)) {
            return;
        }
        StringBuilder out = new StringBuilder("PacketFuzzer: threads at the first case without an answer\n");
        Thread.getAllStackTraces().forEach((thread, stack) -> {
            if (thread.getName().startsWith("shardgate")) {
                out.append(thread.getName()).append(' ').append(thread.getState()).append('\n');
                for (StackTraceElement element : stack) {
                    out.append("    at ").append(element).append('\n');
                }
            }
        });
        System.out.println(out);
    }

    // ---------------------------------------------------------------- metrics

    private static final Pattern IN_USE = Pattern.compile("(?m)^shardgate_backend_connections\\{[^}]*state=\"in_use\"[^}]*} (\\S+)");

    /** Backend connections in use, summed over every pool. */
    private static int inUse(ProxyFixture proxy) throws Exception {
        Matcher matcher = IN_USE.matcher(metrics(proxy));
        double sum = 0;
        while (matcher.find()) {
            sum += Double.parseDouble(matcher.group(1));
        }
        return (int) sum;
    }

    private static String metrics(ProxyFixture proxy) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.adminPort() + "/metrics"))
                .header("Authorization", "Bearer " + ProxyFixture.ADMIN_TOKEN).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    private static void awaitInUse(ProxyFixture proxy, int expected) throws Exception {
        String problem = inUseProblem(proxy, expected);
        if (problem != null) {
            throw new AssertionError(problem);
        }
    }

    /** Null once {@code shardgate_backend_connections{state="in_use"}} is {@code expected}; what it stayed at after 20 s otherwise. */
    private static String inUseProblem(ProxyFixture proxy, int expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        int last = -1;
        while (System.nanoTime() < deadline) {
            last = inUse(proxy);
            if (last == expected) {
                return null;
            }
            Thread.sleep(50);
        }
        return "shardgate_backend_connections{state=\"in_use\"} stayed " + last + " (expected: " + expected
                + ") for 20 s; seed " + SEED + "\n" + metrics(proxy).lines().filter(l -> l.startsWith("shardgate_backend_connections"))
                .reduce("", (a, b) -> a + b + "\n");
    }
}
