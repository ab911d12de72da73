package io.shardgate.tools.demo;

import io.shardgate.proxy.Main;
import io.shardgate.proxy.ProxyLauncher;
import io.shardgate.proxy.ShardgateProxy;
import io.shardgate.proxy.config.ConfigException;
import io.shardgate.proxy.config.ConfigLoader;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Shard;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;
import io.shardgate.storage.StorageAdapters;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * {@code shardgate demo}: two shards on local MariaDB servers, {@code s0} on InnoDB and
 * {@code s1} on MyRocks, one primary and one replica each. It runs until Ctrl-C or SIGTERM,
 * then stops every server it started.
 */
public final class DemoCommand {
    private static final String[] KEY_RANGES = {"-80", "80-"};
    private final PrintStream out;
    private final PrintStream err;

    public DemoCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    private static int port(String flag, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new Main.UsageException(flag + " needs a port number, not '" + value + "'");
        }
    }

    public int run(List<String> args) {
        int port = 3307;
        int adminPort = 8307;
        boolean cluster = false;
        for (int i = 0; i < args.size(); i++) {
            String flag = args.get(i);
            if (flag.equals("--cluster")) {
                cluster = true;
            } else if ((flag.equals("--port") || flag.equals("--admin-port")) && i + 1 < args.size()) {
                int value = port(flag, args.get(++i));
                if (flag.equals("--port")) {
                    port = value;
                } else {
                    adminPort = value;
                }
            } else {
                throw new Main.UsageException("unknown option '" + flag + "' (expected: [--port P] [--admin-port P] [--cluster])");
            }
        }
        if (cluster) {
            return new ClusterDemo(out, port, adminPort).run();
        }
        out.println("Starting the demo topology: s0 (InnoDB) and s1 (MyRocks), a primary and a replica each...");
        long started = System.nanoTime();
        Topology topology = Topology.start(TopologySpec.builder()
                .shard("s0", Engine.INNODB, 1)
                .shard("s1", Engine.ROCKSDB, 1)
                .build());
        CountDownLatch stopped = new CountDownLatch(1);
        ShardgateProxy[] proxy = new ShardgateProxy[1];
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            out.println("Stopping the demo...");
            if (proxy[0] != null) {
                proxy[0].close();
            }
            topology.close();
            out.println("Demo stopped; every server it started has exited.");
            stopped.countDown();
        }, "shardgate-demo-stop"));
        for (Shard shard : topology.shards()) {
            shard.primary().execute(SHOP_DDL);
        }
        Path config = writeConfig(topology, port, adminPort);
        out.printf("Topology up in %.1f s (%s):%n", (System.nanoTime() - started) / 1e9, topology.launcherDescription());
        for (Shard shard : topology.shards()) {
            print(shard.primary());
            shard.replicas().forEach(this::print);
        }
        out.println("Proxy config: " + config);
        try {
            StorageAdapters adapters = StorageAdapters.load(DemoCommand.class.getClassLoader());
            proxy[0] = ProxyLauncher.start(new ConfigLoader(adapters).load(config), adapters);
        } catch (ConfigException e) {
            topology.close();
            throw e;
        }
        out.println("Shardgate listening on 127.0.0.1:" + proxy[0].port() + ", admin API on 127.0.0.1:"
                + proxy[0].adminPort() + " (token change-me)");
        out.println("Connect: mariadb -h127.0.0.1 -P" + proxy[0].port() + " -uapp -papp shop");
        printTryThis(out);
        return DemoCommand.readyUntilStopped(out, stopped);
    }

    /** Says the demo is ready and waits until its shutdown hook has stopped everything; the exit status. */
    static int readyUntilStopped(PrintStream out, CountDownLatch stopped) {
        out.println("Ready. Press Ctrl-C to stop.");
        out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    /** What to try once the demo serves. */
    static void printTryThis(PrintStream out) {
        out.println("Schema shop: customers (sharded by id), orders (sharded by customer_id, id from a global sequence),");
        out.println("countries (a copy on every shard). Try:");
        out.println("  INSERT INTO customers (id, name) VALUES (1, 'Ada'), (2, 'Grace'), (3, 'Linus'), (4, 'Barbara');");
        out.println("  INSERT INTO orders (customer_id, amount) VALUES (1, 10.50), (2, 7.25), (4, 3.00);");
        out.println("  SELECT * FROM customers PARTITION (s1);   -- the rows on shard s1 only");
        out.println("  SELECT customer_id, SUM(amount) FROM orders GROUP BY customer_id ORDER BY 2 DESC;");
        out.println("  EXPLAIN SHARDGATE SELECT * FROM orders WHERE customer_id = 4;");
    }

    void print(Node node) {
        print(out, node);
    }

    static void print(PrintStream out, Node node) {
        out.printf("  %-13s %-8s %-16s server_id %d  pid %d%n", node.name(), node.engine().configName(),
                node.address(), node.serverId(), node.pid());
    }

    /** The demo schema, created on every shard's primary before the proxy starts. */
    static final String[] SHOP_DDL = {
        "CREATE DATABASE shop",
        "CREATE TABLE shop.customers (id BIGINT PRIMARY KEY, name VARCHAR(64) NOT NULL)",
        "CREATE TABLE shop.orders (id BIGINT PRIMARY KEY, customer_id BIGINT NOT NULL, amount DECIMAL(10,2) NOT NULL,"
                + " KEY (customer_id))",
        "CREATE TABLE shop.countries (code CHAR(2) PRIMARY KEY, name VARCHAR(64) NOT NULL)"
    };

    private static Path writeConfig(Topology topology, int port, int adminPort) {
        return writeConfig(topology, port, adminPort, "", "", "shardgate.yaml");
    }

    /**
     * The demo's config: {@code extraYaml} appended, the replica at {@code leftOut} (if any) not in it, written to
     * {@code name} in the topology's directory.
     */
    static Path writeConfig(Topology topology, int port, int adminPort, String extraYaml, String leftOut, String name) {
        StringBuilder yaml = new StringBuilder()
                .append("listen: { host: 127.0.0.1, port: ").append(port).append(" }\n")
                .append("admin:  { host: 127.0.0.1, port: ").append(adminPort).append(", token: change-me }\n")
                .append("users:\n  - { name: app, password: app }\n")
                .append("backend_user: { name: ").append(topology.accounts().user())
                .append(", password: \"").append(topology.accounts().password()).append("\" }\n")
                .append("shards:\n");
        List<Shard> shards = topology.shards();
        for (int s = 0; s < shards.size(); s++) {
            Shard shard = shards.get(s);
            yaml.append("  - name: ").append(shard.name()).append('\n')
                    .append("    key_range: \"").append(KEY_RANGES[s]).append("\"\n")
                    .append("    engine: ").append(shard.engine().configName()).append('\n')
                    .append("    primary: ").append(shard.primary().address()).append('\n')
                    .append("    replicas: [");
            String separator = "";
            for (Node replica : shard.replicas()) {
                if (!replica.address().equals(leftOut)) {
                    yaml.append(separator).append(replica.address());
                    separator = ", ";
                }
            }
            yaml.append("]\n");
        }
        yaml.append("""
                schemas:
                  - name: shop
                    tables:
                      customers: { shard_key: id, vindex: hash }
                      orders:    { shard_key: customer_id, vindex: hash }
                      countries: { type: reference }
                    sequences:
                      orders.id: { shard: s0 }
                transactions: { cross_shard: xa }
                """).append(extraYaml);
        Path file = topology.baseDir().resolve(name);
        try {
            Files.writeString(file, yaml.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }
}
