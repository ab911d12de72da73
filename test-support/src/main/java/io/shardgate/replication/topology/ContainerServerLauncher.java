package io.shardgate.replication.topology;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.utility.DockerImageName;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The fallback when this machine has no {@code mariadbd}: each node is a {@code mariadb:10.11}
 * container on a private network, where replicas reach their primary by its network alias.
 * The accounts are created by an init script with {@code sql_log_bin=0}, so GTID histories stay
 * identical across nodes. A container's host port can change when it is started again.
 */
final class ContainerServerLauncher implements ServerLauncher {
    private static final DockerImageName IMAGE = DockerImageName.parse("mariadb:10.11");
    private static final int SERVER_PORT = 3306;

    private final Network network = Network.newNetwork();
    private final List<ContainerServer> servers = new CopyOnWriteArrayList<>();

    static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Override
    public String description() {
        return "Docker containers from " + IMAGE;
    }

    @Override
    public ServerProcess launch(NodeSpec node, Accounts accounts) {
        List<String> command = new ArrayList<>();
        for (Map.Entry<String, String> option : node.options().entrySet()) {
            command.add("--" + option.getKey().replace('_', '-')
                    + (option.getValue().isEmpty() ? "" : "=" + option.getValue()));
        }
        @SuppressWarnings("resource")
        GenericContainer<?> container = new GenericContainer<>(IMAGE)
                .withNetwork(network)
                .withNetworkAliases(node.name())
                .withExposedPorts(SERVER_PORT)
                .withEnv("MARIADB_ALLOW_EMPTY_ROOT_PASSWORD", "1")
                .withCopyToContainer(Transferable.of("SET sql_log_bin=0;\n" + accounts.createSql()),
                        "/docker-entrypoint-initdb.d/01-accounts.sql")
                .withCommand(command.toArray(String[]::new))
                .waitingFor(Wait.forLogMessage(".*ready for connections.*\\n", 2)
                        .withStartupTimeout(Duration.ofMinutes(3)));
        ContainerServer server = new ContainerServer(node, container, accounts);
        server.start();
        servers.add(server);
        return server;
    }

    @Override
    public void close() {
        for (ContainerServer server : servers) {
            server.container.stop();
        }
        servers.clear();
        network.close();
    }

    private static final class ContainerServer implements ServerProcess {
        private final NodeSpec node;
        private final GenericContainer<?> container;
        private final Accounts accounts;

        ContainerServer(NodeSpec node, GenericContainer<?> container, Accounts accounts) {
            this.node = node;
            this.container = container;
            this.accounts = accounts;
        }

        @Override
        public String host() {
            return container.getHost();
        }

        @Override
        public int port() {
            return container.getMappedPort(SERVER_PORT);
        }

        @Override
        public String replicationHost() {
            return node.name();
        }

        @Override
        public int replicationPort() {
            return SERVER_PORT;
        }

        @Override
        public long pid() {
            return -1;
        }

        @Override
        public boolean isAlive() {
            return container.isRunning();
        }

        @Override
        public void kill() {
            DockerClientFactory.instance().client().killContainerCmd(container.getContainerId()).exec();
        }

        @Override
        public void stop(Duration timeout) {
            DockerClientFactory.instance().client().stopContainerCmd(container.getContainerId())
                    .withTimeout((int) timeout.toSeconds()).exec();
        }

        @Override
        public void start() {
            if (container.getContainerId() == null) {
                container.start();
            } else {
                DockerClientFactory.instance().client().startContainerCmd(container.getContainerId()).exec();
            }
            if (!Poll.until(Duration.ofMinutes(2), () -> Jdbc.accepts(host(), port(), accounts.user(),
                    accounts.password()))) {
                throw new TopologyException(node.name() + ": container did not accept connections within 2 min");
            }
        }

        @Override
        public void freeze() {
            DockerClientFactory.instance().client().pauseContainerCmd(container.getContainerId()).exec();
        }

        @Override
        public void thaw() {
            DockerClientFactory.instance().client().unpauseContainerCmd(container.getContainerId()).exec();
        }
    }
}
