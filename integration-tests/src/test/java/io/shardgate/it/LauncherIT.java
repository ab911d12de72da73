package io.shardgate.it;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.shardgate.replication.topology.Shard;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;

import java.nio.file.Files;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code ./shardgate} launcher as a user runs it. */
class LauncherIT {
    private static final Path HOME = Path.of(System.getProperty("shardgate.home", "..")).toAbsolutePath().normalize();
    private static final Path JAR = HOME.resolve("proxy-core/target/shardgate.jar");
    /** demo and bench run from the tools jar (they start MariaDB servers; the production jar has no topology). */
    private static final Path TOOLS_JAR = HOME.resolve("tools/target/shardgate-tools.jar");
    private static final Pattern PID = Pattern.compile("\\bpid (\\d+)");
    private static final Pattern CONNECT = Pattern.compile("Connect: mariadb -h127\\.0\\.0\\.1 -P(\\d+) -uapp -papp");
    private static final Pattern DIR = Pattern.compile("in (/\\S+shardgate-topology-\\d+)\\)");

    @Test
    void noOrUnknownArgumentsPrintUsageAndFail() throws Exception {
        Result none = run(List.of());
        assertThat(none.status).isNotZero();
        assertThat(none.output).contains("usage: ./shardgate <command>");
        Result unknown = run(List.of("frobnicate"));
        assertThat(unknown.status).isNotZero();
        assertThat(unknown.output).contains("unknown command 'frobnicate'").contains("usage:");
    }

    /**
     * {@code ./shardgate COMMAND --help}: the usage on stdout and status 0, for the launcher's own commands and
     * for every command of the packaged jar's Main, without installing, building or starting anything.
     */
    @Test
    void everySubcommandsHelpPrintsItsUsageOnStdoutAndExitsZero() throws Exception {
        assertThat(JAR).as("the reactor built the runnable jar before this module").exists();
        Map<String, String> usages = new LinkedHashMap<>();
        usages.put("--help", "usage: ./shardgate <command>");
        usages.put("help", "usage: ./shardgate <command>");
        usages.put("run --help", "usage: shardgate run --config FILE");
        usages.put("demo --help", "usage: shardgate demo [--port P] [--admin-port P] [--cluster]");
        usages.put("stream --help", "usage: stream --source HOST:PORT --target HOST:PORT --user U --password P");
        usages.put("bench --help", "usage: shardgate bench [sysbench] [--time S]");
        usages.put("bench split --help", "shardgate bench split [--time S]");
        usages.put("bench shards --help", "shardgate bench shards [--time S]");
        usages.put("bench apply --help", "shardgate bench apply [--transactions N]");
        usages.put("checksum --help", "usage: shardgate checksum --config FILE schema.table");
        usages.put("admin --help", "usage: shardgate admin [--url URL] [--token TOKEN] [--as NAME] COMMAND");
        usages.put("test --help", "usage: ./shardgate test");
        for (Map.Entry<String, String> usage : usages.entrySet()) {
            Result help = run(List.of(usage.getKey().split(" ")), false);
            assertThat(help.status).as("./shardgate %s exits 0; stderr: %s", usage.getKey(), help.error).isZero();
            assertThat(help.output).as("./shardgate %s prints its usage on stdout", usage.getKey()).contains(usage.getValue());
            assertThat(help.error).as("./shardgate %s writes nothing on stderr", usage.getKey()).isEmpty();
        }
        // A bad argument still fails with status 2 and the usage on stderr.
        Result bad = run(List.of("stream", "--source"), false);
        assertThat(bad.status).isEqualTo(2);
        assertThat(bad.output).isEmpty();
        assertThat(bad.error).contains("--source needs a value").contains("usage: stream --source HOST:PORT");
    }

    @Test
    void demoStartsAndStopsCleanlyTwiceInARow() throws Exception {
        assertThat(JAR).as("the reactor built the runnable jar before this module").exists();
        demoOnce("INT");
        demoOnce("TERM");
    }

    private void demoOnce(String signal) throws Exception {
        // Free ports, so a demo someone is running on 3307 does not get in the way.
        DemoProcess demo = DemoProcess.start(List.of("--port", "0", "--admin-port", "0"));
        boolean started = demo.awaitReady(120);
        List<String> lines = demo.lines();
        List<Long> pids = new ArrayList<>();
        String topologyDir = null;
        synchronized (lines) {
            assertThat(started).as("demo printed Ready; output:\n" + String.join("\n", lines)).isTrue();
            for (String line : lines) {
                Matcher pid = PID.matcher(line);
                if (pid.find()) {
                    pids.add(Long.parseLong(pid.group(1)));
                }
                Matcher dir = DIR.matcher(line);
                if (dir.find()) {
                    topologyDir = dir.group(1);
                }
            }
        }
        assertThat(pids).as("one pid per server: 2 shards x 2 nodes").hasSize(4);
        int proxyPort = 0;
        synchronized (lines) {
            for (String line : lines) {
                Matcher connect = CONNECT.matcher(line);
                if (connect.find()) {
                    proxyPort = Integer.parseInt(connect.group(1));
                }
            }
        }
        // The printed connect command works.
        Process cli = new ProcessBuilder("mariadb", "-h127.0.0.1", "-P" + proxyPort, "-uapp", "-papp", "--batch",
                "--skip-column-names", "-e", "SELECT @@server_id, 6 * 7").redirectErrorStream(true).start();
        String answer = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(cli.waitFor(30, TimeUnit.SECONDS)).isTrue();
        // A read: s0's replica (server_id 2) answers it, or the primary (1) while the replica's lag is not measured yet.
        assertThat(answer).matches("[12]\t42\n");
        // The demo schema is sharded: rows spread over both shards, and a scatter query sees all of them.
        Process sharded = new ProcessBuilder("mariadb", "-h127.0.0.1", "-P" + proxyPort, "-uapp", "-papp", "--batch",
                "--skip-column-names", "shop", "-e", "INSERT INTO customers (id, name) VALUES (1, 'Ada'), (2, 'Grace'), (3, 'Linus'),"
                + " (4, 'Barbara'); SELECT COUNT(*), SUM(id) FROM customers; SELECT COUNT(*) FROM customers PARTITION (s1)")
                .redirectErrorStream(true).start();
        String shardedAnswer = new String(sharded.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(sharded.waitFor(30, TimeUnit.SECONDS)).isTrue();
        // docs/sharding.md: ids 1 and 4 hash into s1's range, 2 and 3 into s0's.
        assertThat(shardedAnswer).isEqualTo("4\t10\n2\n");
        for (long pid : pids) {
            assertThat(commandLine(pid)).contains("mariadbd").contains(topologyDir);
        }

        assertThat(demo.stop(signal)).as("demo exits after SIG" + signal).isTrue();
        assertThat(demo.lines()).anyMatch(line -> line.startsWith("Demo stopped"));
        for (long pid : pids) {
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                    .as("mariadbd pid " + pid + " is gone").isFalse();
        }
        assertThat(Path.of(topologyDir)).doesNotExist();
    }

    private static String commandLine(long pid) throws IOException {
        return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")), StandardCharsets.UTF_8)
                .replace('\0', ' ');
    }

    @Test
    void checksumComparesATableAcrossAnInnoDbAndAMyRocksShard() throws Exception {
        try (Topology topology = Topology.start(TopologySpec.builder().shard("s0", Engine.INNODB, 0)
                .shard("s1", Engine.ROCKSDB, 0).build())) {
            for (Shard shard : topology.shards()) {
                shard.primary().execute("CREATE DATABASE ck", "USE ck", "CREATE TABLE ck.t (id INT PRIMARY KEY, v VARCHAR(20), n INT)",
                        "INSERT INTO ck.t SELECT seq, CONCAT('v', seq), IF(seq % 7 = 0, NULL, seq) FROM seq_1_to_500");
            }
            StringBuilder yaml = new StringBuilder("admin: { token: checksum-test }\nusers: [ { name: app, password: app } ]\n")
                    .append("backend_user: { name: ").append(topology.accounts().user()).append(", password: \"")
                    .append(topology.accounts().password()).append("\" }\nshards:\n");
            for (Shard shard : topology.shards()) {
                yaml.append("  - { name: ").append(shard.name()).append(", engine: ").append(shard.engine().configName())
                        .append(", primary: \"").append(shard.primary().address()).append("\" }\n");
            }
            Path config = Files.createTempFile("checksum", ".yaml");
            try {
                Files.writeString(config, yaml);
                Result same = run(List.of("checksum", "--config", config.toString(), "ck.t"));
                assertThat(same.status).as(same.output).isZero();
                List<String> lines = same.output.lines().filter(line -> line.startsWith("s0") || line.startsWith("s1")).toList();
                assertThat(lines).hasSize(2);
                assertThat(lines.get(0).split("\t")[1]).isEqualTo("500");
                assertThat(lines.get(0).substring(2)).as("same rows, same count and checksum on both engines")
                        .isEqualTo(lines.get(1).substring(2));

                topology.shard("s1").primary().execute("UPDATE ck.t SET v = 'changed' WHERE id = 123");
                Result changed = run(List.of("checksum", "--config", config.toString(), "ck.t"));
                List<String> after = changed.output.lines().filter(line -> line.startsWith("s0") || line.startsWith("s1")).toList();
                assertThat(after).hasSize(2);
                assertThat(after.get(0).substring(2)).as("one changed row changes the checksum").isNotEqualTo(after.get(1).substring(2));
            } finally {
                Files.deleteIfExists(config);
            }
        }
    }

    /** {@code output} is stdout and stderr together, unless asked for separately ({@code error} is then stderr). */
    private record Result(int status, String output, String error) {
    }

    /** The launcher with these arguments, using the jar the reactor built; stdout and stderr together. */
    private static Result run(List<String> args) throws Exception {
        return run(args, true);
    }

    private static Result run(List<String> args, boolean mergeStderr) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(HOME.resolve("shardgate").toString());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(mergeStderr);
        builder.environment().put("SHARDGATE_JAR", JAR.toString());
        builder.environment().put("SHARDGATE_TOOLS_JAR", TOOLS_JAR.toString());
        Process process = builder.start();
        CompletableFuture<String> error = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(process.exitValue(), output, error.get(60, TimeUnit.SECONDS));
    }
}
