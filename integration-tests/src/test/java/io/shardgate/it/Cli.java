package io.shardgate.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a real command-line client (the mariadb CLI, python3 scripts) and captures what it printed. */
final class Cli {
    record Result(int status, String stdout, String stderr) {
    }

    private Cli() {
    }

    static Result run(List<String> command, String stdin, int timeoutSeconds) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).start();
        Thread writer = new Thread(() -> {
            try (var in = process.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            } catch (IOException ignored) {
                // The process exited early; its status says why.
            }
        });
        writer.start();
        byte[][] out = new byte[2][];
        Thread errReader = new Thread(() -> {
            try {
                out[1] = process.getErrorStream().readAllBytes();
            } catch (IOException e) {
                out[1] = new byte[0];
            }
        });
        errReader.start();
        out[0] = process.getInputStream().readAllBytes();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(command.get(0) + " did not finish within " + timeoutSeconds + " s");
        }
        errReader.join();
        writer.join();
        return new Result(process.exitValue(), new String(out[0], StandardCharsets.UTF_8),
                new String(out[1], StandardCharsets.UTF_8));
    }

    static List<String> mariadb(int port, String... extra) {
        List<String> command = new ArrayList<>(List.of("mariadb", "-h127.0.0.1", "-P" + port,
                "-u" + ProxyFixture.USER, "-p" + ProxyFixture.PASSWORD, "--batch", "--skip-column-names"));
        command.addAll(List.of(extra));
        return command;
    }
}
