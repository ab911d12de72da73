package io.shardgate.replication.topology;

/**
 * Starts MariaDB servers for a topology. {@link #close()} stops every server it launched and
 * removes what it wrote.
 */
public interface ServerLauncher extends AutoCloseable {

    /** A short description for logs, such as {@code "local mariadbd 10.11.19"}. */
    String description();

    /**
     * Launches a server and returns once it accepts TCP connections from {@code account}.
     * Several launches may run at once.
     */
    ServerProcess launch(NodeSpec node, Accounts account) throws TopologyException;

    @Override
    void close();
}
