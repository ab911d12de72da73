package io.shardgate.replication.topology;

import java.time.Duration;

/** A running (or stopped) MariaDB server, as its launcher controls it. */
public interface ServerProcess {

    /** Host the test JVM reaches the server on. */
    String host();

    int port();

    /** Host and port other nodes of the topology reach this server on (for replication). */
    String replicationHost();

    int replicationPort();

    /** Operating-system pid, or -1 where the launcher cannot tell (a container). */
    long pid();

    boolean isAlive();

    /** SIGKILL: no shutdown, the next start runs crash recovery. */
    void kill();

    /** Clean shutdown (SIGTERM), waiting at most {@code timeout} before killing. */
    void stop(Duration timeout);

    /** Starts a stopped or killed server again on the same data and port; returns when it accepts connections. */
    void start();

    /** SIGSTOP: the server stays up but answers nothing. */
    void freeze();

    /** SIGCONT after {@link #freeze()}. */
    void thaw();
}
