package io.shardgate.tools.demo;

import io.shardgate.proxy.ProxyLauncher;
import io.shardgate.proxy.ShardgateProxy;
import io.shardgate.proxy.config.ConfigLoader;
import io.shardgate.replication.topology.EtcdCluster;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Shard;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;
import io.shardgate.storage.StorageAdapters;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * {@code shardgate demo --cluster}: the demo's shards, a local etcd, and two proxies that follow one topology
 * in it. Shard s0 has a spare replica that is not in the topology, for trying the admin API: add it through
 * one proxy and both serve reads from it.
 */
final class ClusterDemo {
    private static final String[] PROXIES = {"proxy-a", "proxy-b"};
    private final PrintStream out;
    private final int port;
    private final int adminPort;

    ClusterDemo(PrintStream out, int port, int adminPort) {
        this.out = out;
        this.port = port;
        this.adminPort = adminPort;
    }

    int run() {
        out.println("Starting the cluster demo: a local etcd, s0 (InnoDB, two replicas: one spare) and s1 (MyRocks), two proxies...");
        long started = System.nanoTime();
        EtcdCluster etcd = EtcdCluster.start(1);
        Topology topology;
        try {
            topology = Topology.start(TopologySpec.builder().shard("s0", Engine.INNODB, 2).shard("s1", Engine.ROCKSDB, 1).build());
        } catch (RuntimeException e) {
            etcd.close();
            throw e;
        }
        List<ShardgateProxy> proxies = new ArrayList<>();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            out.println("Stopping the demo...");
            synchronized (proxies) {
                proxies.forEach(ShardgateProxy::close);
            }
            topology.close();
            etcd.close();
            out.println("Demo stopped; every server it started has exited.");
            stopped.countDown();
        }, "shardgate-demo-stop"));
        for (Shard shard : topology.shards()) {
            shard.primary().execute(DemoCommand.SHOP_DDL);
        }
        Node spare = topology.shard("s0").replica(1);
        out.printf("Topology up in %.1f s (%s); etcd at %s:%n", (System.nanoTime() - started) / 1e9, topology.launcherDescription(),
                etcd.endpoint(0));
        for (Shard shard : topology.shards()) {
            DemoCommand.print(out, shard.primary());
            shard.replicas().forEach(node -> DemoCommand.print(out, node));
        }
        StorageAdapters adapters = StorageAdapters.load(ClusterDemo.class.getClassLoader());
        for (int i = 0; i < PROXIES.length; i++) {
            String extra = """
                    topology:
                      store: etcd
                      etcd: { endpoints: [%s], prefix: /shardgate/demo }
                      proxy_id: %s
                      local_copy: %s
                    """.formatted(etcd.endpoint(0), PROXIES[i], topology.baseDir().resolve(PROXIES[i] + "-topology.json"));
            Path config = DemoCommand.writeConfig(topology, port == 0 ? 0 : port + i, adminPort == 0 ? 0 : adminPort + i, extra,
                    spare.address(), PROXIES[i] + ".yaml");
            ShardgateProxy proxy = ProxyLauncher.start(new ConfigLoader(adapters).load(config), adapters);
            synchronized (proxies) {
                proxies.add(proxy);
            }
            out.println(PROXIES[i] + " listening on 127.0.0.1:" + proxy.port() + ", admin API on 127.0.0.1:" + proxy.adminPort()
                    + " (token change-me); config " + config);
        }
        ShardgateProxy first = proxies.get(0);
        out.println("Connect: mariadb -h127.0.0.1 -P" + first.port() + " -uapp -papp shop   (or -P" + proxies.get(1).port()
                + ": the same topology)");
        DemoCommand.printTryThis(out);
        out.println("Change the topology through either proxy; both follow it:");
        String admin = "  ./shardgate admin --url http://127.0.0.1:" + first.adminPort() + " --token change-me ";
        out.println(admin + "proxies");
        out.println(admin + "add-replica s0 " + spare.address() + "   # the spare replica, not in the topology yet");
        out.println(admin + "drain " + spare.address());
        out.println("  SHOW SHARDGATE TOPOLOGY;   -- through either proxy");
        return DemoCommand.readyUntilStopped(out, stopped);
    }
}
