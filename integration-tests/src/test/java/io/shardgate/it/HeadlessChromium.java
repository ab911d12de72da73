package io.shardgate.it;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Debian's {@code chromium} in headless mode, as a test's browser: it loads a page, lets its scripts run for a
 * budget of virtual time (timers fire, fetches complete), then prints the DOM or writes a screenshot. Each run has a
 * profile directory of its own under {@code integration-tests/target}, so runs never share state. The test scripts
 * install the package ({@code ./shardgate test}); a test fails naming the binary when it is missing.
 */
final class HeadlessChromium {
    static final String BINARY = "chromium";
    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final AtomicInteger RUNS = new AtomicInteger();

    private final Path binary;
    private final Path work;

    private HeadlessChromium(Path binary, Path work) {
        this.binary = binary;
        this.work = work;
    }

    /** The {@code chromium} on the PATH; fails naming it and how to install it when there is none. */
    static HeadlessChromium find() {
        for (String directory : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            Path candidate = Path.of(directory, BINARY);
            if (Files.isExecutable(candidate)) {
                return new HeadlessChromium(candidate, JarProxy.HOME.resolve("integration-tests/target/chromium"));
            }
        }
        throw new AssertionError("the browser test needs '" + BINARY + "' (Debian's package chromium) on the PATH and found "
                + "none: ./shardgate test installs it, or run: apt-get install -y chromium");
    }

    /** The DOM after {@code budget} of virtual time on {@code url}. */
    String dumpDom(String url, Duration budget) {
        return run(url, budget, List.of("--dump-dom")).stdout();
    }

    /** A PNG of the page after {@code budget} of virtual time, at {@code width} x {@code height}, written to {@code png}. */
    void screenshot(String url, Duration budget, Path png, int width, int height) {
        try {
            Files.deleteIfExists(png);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Run run = run(url, budget, List.of("--screenshot=" + png, "--window-size=" + width + "," + height, "--hide-scrollbars"));
        if (!Files.isRegularFile(png)) {
            throw new AssertionError(BINARY + " wrote no screenshot to " + png + ":\n" + run.stderr());
        }
    }

    private record Run(String stdout, String stderr) {
    }

    private Run run(String url, Duration budget, List<String> output) {
        try {
            Path profile = work.resolve("profile-" + ProcessHandle.current().pid() + "-" + RUNS.incrementAndGet());
            Files.createDirectories(profile);
            Path stdout = profile.resolveSibling(profile.getFileName() + ".out");
            Path stderr = profile.resolveSibling(profile.getFileName() + ".err");
            List<String> command = new ArrayList<>(List.of(binary.toString(), "--headless=new", "--no-sandbox", "--disable-gpu",
                    "--no-first-run", "--disable-extensions", "--user-data-dir=" + profile,
                    "--virtual-time-budget=" + budget.toMillis()));
            command.addAll(output);
            command.add(url);
            Process process = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
            if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError(BINARY + " did not finish " + url + " within " + TIMEOUT.toSeconds() + " s:\n"
                        + Files.readString(stderr, StandardCharsets.UTF_8));
            }
            Run run = new Run(Files.readString(stdout, StandardCharsets.UTF_8), Files.readString(stderr, StandardCharsets.UTF_8));
            if (process.exitValue() != 0) {
                throw new AssertionError(BINARY + " exited with status " + process.exitValue() + " on " + url + ":\n" + run.stderr());
            }
            return run;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while " + BINARY + " ran", e);
        }
    }
}
