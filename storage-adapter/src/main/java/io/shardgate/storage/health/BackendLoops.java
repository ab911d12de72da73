package io.shardgate.storage.health;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The proxy's monitoring loops, one per backend server ({@code host:port}), all logging in with
 * the proxy's backend account: the engine health monitor and the lag monitor of a server add
 * their checks to the same {@link BackendLoop}, so each server gets one thread and one control
 * connection. Loops are made on first request, started together by {@link #start}, and closed
 * together.
 */
public final class BackendLoops implements AutoCloseable {
    private final String user;
    private final String password;
    private final Map<String, BackendLoop> loops = new LinkedHashMap<>();
    private boolean started;

    public BackendLoops(String user, String password) {
        this.user = requireNonNull(user, "user is null");
        this.password = requireNonNull(password, "password is null");
    }

    /** The loop of the server at {@code host:port}, made now if it is the first request for it. */
    public synchronized BackendLoop loop(String host, int port) {
        requireNonNull(host, "host is null");
        if (started) {
            throw new IllegalStateException("monitoring loops already started");
        }
        return loops.computeIfAbsent(host + ":" + port,
                address -> new BackendLoop("shardgate-monitor-" + address, ControlConnection.to(host, port, user, password)));
    }

    /** Every loop made so far, in the order they were first requested. */
    public synchronized List<BackendLoop> loops() {
        return List.copyOf(loops.values());
    }

    /** Starts every loop; once only. */
    public synchronized void start() {
        if (started) {
            throw new IllegalStateException("monitoring loops already started");
        }
        started = true;
        loops.values().forEach(BackendLoop::start);
    }

    /** Stops every loop, waiting for the checks in flight. */
    @Override
    public void close() {
        List<BackendLoop> all;
        synchronized (this) {
            started = true;
            all = List.copyOf(loops.values());
        }
        all.forEach(BackendLoop::close);
    }
}
