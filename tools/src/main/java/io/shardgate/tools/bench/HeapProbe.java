package io.shardgate.tools.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The heap of another JVM, read by its pid with the JDK's own tools: {@code jcmd <pid> GC.run} (a full collection)
 * and {@code jstat -gc}, whose used columns (survivors, eden, old, in KB) add up to the used heap. A
 * {@link Sampler} runs {@code jstat -gc <pid> 50} and keeps the highest used heap and old generation it printed,
 * every 50 ms: the peak includes garbage not yet collected, the old generation what survived young collections.
 */
final class HeapProbe {
    private final long pid;

    HeapProbe(long pid) {
        this.pid = pid;
    }

    /** Heap in use, and of it the old generation, in KB (one {@code jstat -gc} line). */
    record Heap(long usedKb, long oldKb) {
        /** A value line of {@code jstat -gc} under its header line. */
        static Heap parse(String header, String values) {
            List<String> names = List.of(header.trim().split("\\s+"));
            String[] cells = values.trim().split("\\s+");
            if (cells.length != names.size()) {
                throw new IllegalArgumentException("jstat line '" + values + "' does not match its header '" + header + "'");
            }
            double used = 0;
            for (String column : List.of("S0U", "S1U", "EU", "OU")) {
                int at = names.indexOf(column);
                if (at < 0) {
                    throw new IllegalArgumentException("jstat header '" + header + "' has no " + column);
                }
                used += Double.parseDouble(cells[at]);
            }
            return new Heap(Math.round(used), Math.round(Double.parseDouble(cells[names.indexOf("OU")])));
        }

        String usedMb() {
            return mb(usedKb);
        }

        String oldMb() {
            return mb(oldKb);
        }

        static String mb(long kb) {
            return String.format(Locale.ROOT, "%.1f", kb / 1024.0);
        }
    }

    /** A full collection ({@code jcmd GC.run}, i.e. System.gc()), then the heap left in use. */
    Heap afterFullGc() throws IOException, InterruptedException {
        run("jcmd", Long.toString(pid), "GC.run");
        List<String> lines = run("jstat", "-gc", Long.toString(pid)).lines().filter(l -> !l.isBlank()).toList();
        if (lines.size() < 2) {
            throw new IOException("jstat -gc " + pid + " printed " + lines);
        }
        return Heap.parse(lines.get(0), lines.get(1));
    }

    /** The first line of {@code jcmd GC.heap_info}: the collector and the heap's size. */
    String heapInfo() throws IOException, InterruptedException {
        return run("jcmd", Long.toString(pid), "GC.heap_info").lines().skip(1).map(String::trim).filter(l -> !l.isEmpty())
                .findFirst().orElse("?");
    }

    Sampler sample() throws IOException {
        return new Sampler(new ProcessBuilder("jstat", "-gc", Long.toString(pid), "50").redirectErrorStream(true).start());
    }

    private static String run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IOException(String.join(" ", command) + " failed:\n" + output);
        }
        return output;
    }

    /** {@code jstat -gc <pid> 50} running: the peaks since the last {@link #takePeak()}. */
    static final class Sampler implements AutoCloseable {
        private final Process process;
        private final Thread reader;
        private final AtomicLong peakUsed = new AtomicLong();
        private final AtomicLong peakOld = new AtomicLong();
        private final AtomicLong samples = new AtomicLong();

        private Sampler(Process process) {
            this.process = process;
            this.reader = new Thread(this::read, "jstat-reader");
            reader.setDaemon(true);
            reader.start();
        }

        private void read() {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String header = null;
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    if (line.isBlank()) {
                        continue;
                    }
                    if (line.trim().startsWith("S0C")) {
                        header = line;
                    } else if (header != null) {
                        Heap heap = Heap.parse(header, line);
                        peakUsed.accumulateAndGet(heap.usedKb(), Math::max);
                        peakOld.accumulateAndGet(heap.oldKb(), Math::max);
                        samples.incrementAndGet();
                    }
                }
            } catch (IOException | RuntimeException e) {
                // The target exited or jstat stopped: the peaks so far stand, samples() tells how many there were.
            }
        }

        /** The highest used heap and old generation sampled since the last call, then starts a new window. */
        Heap takePeak() {
            return new Heap(peakUsed.getAndSet(0), peakOld.getAndSet(0));
        }

        long samples() {
            return samples.get();
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            reader.join(10_000);
        }
    }
}
