package io.shardgate.proxy;

import io.shardgate.proxy.config.ConfigLoader;
import io.shardgate.proxy.config.ShardgateConfig;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/** {@code shardgate run --config FILE}. */
final class RunCommand {
    private final PrintStream out;
    private final PrintStream err;

    RunCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    int run(List<String> args) {
        Main.rejectUnknown(args, "--config");
        String file = Main.option(args, "--config");
        if (file == null) {
            throw new Main.UsageException("--config FILE is required");
        }
        ShardgateConfig config = new ConfigLoader().load(Path.of(file));
        out.println("Config " + file + " is valid: " + config.shards().size() + " shard(s), "
                + config.users().size() + " user(s).");
        err.println("shardgate run: the proxy server is not built yet (issue: protocol front end)");
        return 1;
    }
}
