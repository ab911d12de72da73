package io.shardgate.tools.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What a bench that starts servers, proxies and load runs in: a directory for their logs, and everything it started,
 * stopped in reverse order when the bench ends, also when it fails.
 */
final class BenchScope {
    /** The bench itself, given the scope. */
    interface Body {
        int run(BenchScope scope) throws IOException, InterruptedException, SQLException;
    }

    private final Path logs;
    private final Deque<AutoCloseable> started = new ArrayDeque<>();

    private BenchScope(Path logs) {
        this.logs = logs;
    }

    /** Runs {@code body} in a new scope named {@code name} ("bench reshard"); its exit status. */
    static int run(String name, PrintStream out, PrintStream err, Body body) throws IOException, InterruptedException {
        BenchScope scope = new BenchScope(Files.createTempDirectory("shardgate-" + name.replace(' ', '-')));
        try {
            return body.run(scope);
        } catch (SQLException e) {
            throw new IOException(name + ": " + e.getErrorCode() + " " + e.getSQLState() + " " + e.getMessage(), e);
        } finally {
            out.println("stopping everything the bench started (logs in " + scope.logs + ")");
            while (!scope.started.isEmpty()) {
                try {
                    scope.started.pop().close();
                } catch (Exception e) {
                    err.println("cleanup: " + e);
                }
            }
        }
    }

    Path logs() {
        return logs;
    }

    /** Stops {@code resource} when the bench ends (after what was started after it). */
    <T extends AutoCloseable> T started(T resource) {
        started.push(resource);
        return resource;
    }
}
