package io.shardgate.replication.stream.cli;

import java.util.List;

/** Runs {@link StreamCommand} as its own JVM, so tests can SIGKILL it. */
public final class StreamCommandMain {
    private StreamCommandMain() {
    }

    public static void main(String[] args) {
        System.exit(new StreamCommand().run(List.of(args), System.out, System.err));
    }
}
