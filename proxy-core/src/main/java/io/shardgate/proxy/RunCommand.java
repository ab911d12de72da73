package io.shardgate.proxy;

import io.shardgate.proxy.config.ConfigLoader;
import io.shardgate.proxy.config.ShardgateConfig;
import io.shardgate.storage.StorageAdapters;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/** {@code shardgate run --config FILE}: serves until SIGTERM or Ctrl-C. */
final class RunCommand {
    private final PrintStream out;

    RunCommand(PrintStream out, PrintStream err) {
        this.out = out;
    }

    int run(List<String> args) {
        Main.rejectUnknown(args, "--config");
        String file = Main.option(args, "--config");
        if (file == null) {
            throw new Main.UsageException("--config FILE is required");
        }
        // The storage adapters are found once: the config's engines and the proxy's health probes use the same registry.
        StorageAdapters adapters = StorageAdapters.load(RunCommand.class.getClassLoader());
        ShardgateConfig config = new ConfigLoader(adapters).load(Path.of(file));
        ShardgateProxy proxy = ProxyLauncher.start(config, adapters);
        out.println("Shardgate listening on " + config.listen().host() + ":" + proxy.port() + " ("
                + proxy.transportName() + "), admin on " + config.admin().listen().host() + ":" + proxy.adminPort());
        out.flush();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            proxy.close();
            stopped.countDown();
        }, "shardgate-stop"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }
}
