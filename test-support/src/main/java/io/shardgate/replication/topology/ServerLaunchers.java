package io.shardgate.replication.topology;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Picks how to run servers: the local {@code mariadbd} when there is one, else Docker through
 * Testcontainers, else a failure that names what is missing.
 */
final class ServerLaunchers {
    private ServerLaunchers() {
    }

    static ServerLauncher choose(Path baseDir) {
        Optional<LocalServerLauncher> local = LocalServerLauncher.find(baseDir);
        if (local.isPresent()) {
            return local.get();
        }
        String docker;
        try {
            if (ContainerServerLauncher.dockerAvailable()) {
                return new ContainerServerLauncher();
            }
            docker = "no Docker engine is reachable";
        } catch (NoClassDefFoundError e) {
            docker = "Testcontainers is not on the class path";
        }
        throw new TopologyException("cannot start MariaDB servers: no local mariadbd or mariadb-install-db "
                + "(searched PATH, /usr/sbin, /usr/bin, /usr/local/bin, /usr/local/mysql/bin) and " + docker
                + ". Install MariaDB 10.11 (apt-get install mariadb-server mariadb-plugin-rocksdb) "
                + "or start a Docker engine.");
    }
}
