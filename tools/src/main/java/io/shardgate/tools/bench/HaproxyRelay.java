package io.shardgate.tools.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * HAProxy 2.x as a plain TCP relay in front of one server, the reference a proxy is compared with: a child process
 * ({@code haproxy -f cfg -db}, foreground) on a free port of 127.0.0.1, with {@code nbthread 2} as on this
 * 2-core machine. {@link #close()} kills it and waits for it; callers use try-with-resources so a failing bench
 * never leaves it running.
 */
final class HaproxyRelay implements AutoCloseable {
    static final Path BINARY = Path.of("/usr/sbin/haproxy");
    private static final long START_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final Process process;
    private final int port;
    private final Path log;

    private HaproxyRelay(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** The configuration: one {@code listen} section relaying 127.0.0.1:{@code port} to {@code server} (host:port). */
    static String config(int port, String server) {
        return """
                global
                    nbthread 2
                    maxconn 4096

                defaults
                    mode tcp
                    timeout connect 1h
                    timeout client 1h
                    timeout server 1h

                listen relay
                    bind 127.0.0.1:%d
                    server s0 %s
                """.formatted(port, server);
    }

    /** Starts HAProxy in front of {@code server} and returns once its port accepts connections. */
    static HaproxyRelay start(String server) throws IOException {
        if (!Files.isExecutable(BINARY)) {
            throw new IOException(BINARY + " not found: install the haproxy package (apt-get install haproxy);"
                    + " ./shardgate bench installs it when run as root");
        }
        Path dir = Files.createTempDirectory("shardgate-bench-haproxy");
        Path cfg = dir.resolve("haproxy.cfg");
        Path log = dir.resolve("haproxy.log");
        int port = freePort();
        Files.writeString(cfg, config(port, server));
        Process process = new ProcessBuilder(BINARY.toString(), "-f", cfg.toString(), "-db")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        HaproxyRelay relay = new HaproxyRelay(process, port, log);
        try {
            relay.awaitAccepting();
            return relay;
        } catch (IOException | RuntimeException e) {
            relay.close();
            throw e;
        }
    }

    int port() {
        return port;
    }

    /** Its CPU time (all threads), for the CPU-per-statement column. */
    CpuClock cpu() {
        return CpuClock.ofPid(process.pid());
    }

    private void awaitAccepting() throws IOException {
        long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
        while (!accepts()) {
            if (!process.isAlive()) {
                throw new IOException("haproxy exited with status " + process.exitValue() + ":\n" + Files.readString(log));
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IOException("haproxy did not accept on 127.0.0.1:" + port + " within 30 s:\n" + Files.readString(log));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    private boolean accepts() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port for haproxy", e);
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        // The config and the log (whose text a failed start already reported) are of no use once it stopped.
        for (Path file : new Path[] {log, log.resolveSibling("haproxy.cfg"), log.getParent()}) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // a leftover file in the temp directory is harmless
            }
        }
    }
}
