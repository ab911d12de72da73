package io.shardgate.proxy;

import io.shardgate.proxy.config.ConfigLoader;
import io.shardgate.proxy.config.ShardConfig;
import io.shardgate.proxy.config.ShardgateConfig;
import io.shardgate.storage.checksum.ChecksumCommand;
import io.shardgate.storage.checksum.ChecksumTarget;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code shardgate checksum --config FILE schema.table}: the row count and checksum of a table on
 * every shard's primary (over the control plane, as the config's backend user), one line per shard,
 * then one for the logical table. See docs/engines.md.
 */
final class ChecksumCli {
    private ChecksumCli() {
    }

    static int run(List<String> args, PrintStream out, PrintStream err) throws IOException {
        Path config = null;
        String table = null;
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("--config") && i + 1 < args.size()) {
                config = Path.of(args.get(++i));
            } else if (table == null && !args.get(i).startsWith("--")) {
                table = args.get(i);
            } else {
                throw new Main.UsageException("unexpected argument '" + args.get(i) + "'");
            }
        }
        if (config == null || table == null) {
            throw new Main.UsageException("give --config FILE and schema.table");
        }
        ShardgateConfig parsed = new ConfigLoader().load(config);
        List<ChecksumTarget> targets = new ArrayList<>();
        for (ShardConfig shard : parsed.shards()) {
            targets.add(new ChecksumTarget(shard.name(), "jdbc:mariadb://" + shard.primary().host() + ":" + shard.primary().port() + "/",
                    parsed.backendUser().name(), parsed.backendUser().password()));
        }
        return new ChecksumCommand().run(targets, table, out, err);
    }
}
