package io.shardgate.proxy.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.proxy.topology.TopologyStoreUnavailableException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * The jobs of a single proxy (topology store {@code file}): a JSON file next to the config file
 * ({@code <config>.jobs.json}, {@code {"jobs": [{"version": N, "job": {...}}]}}), rewritten whole through a temporary
 * file renamed over it after every write; in memory without a file. The single proxy is the only runner: its leases
 * live in this object and never expire, and a restarted proxy takes its unfinished jobs again.
 */
public final class FileJobStore implements JobStore {
    private final Optional<Path> file;
    private final JobJson json = new JobJson();
    private final TreeMap<String, StoredJob> jobs = new TreeMap<>();
    private final Map<String, FileLease> leases = new HashMap<>();
    private final List<Consumer<String>> listeners = new ArrayList<>();
    private final ExecutorService delivery = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "shardgate-jobs-file");
        thread.setDaemon(true);
        return thread;
    });
    private long lastVersion;

    /** Loads {@code file} when it exists; throws {@link IllegalArgumentException} when it is not a jobs file. */
    public FileJobStore(Optional<Path> file) {
        this.file = requireNonNull(file, "file is null");
        file.filter(Files::exists).ifPresent(this::load);
    }

    private void load(Path path) {
        try {
            JsonNode root = json.mapper().readTree(Files.readString(path));
            for (JsonNode entry : root.path("jobs")) {
                Job job = json.read(entry.path("job").toString());
                long version = entry.path("version").asLong();
                jobs.put(job.id(), new StoredJob(job, version));
                lastVersion = Math.max(lastVersion, version);
            }
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException(path + " is not a jobs file: " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized List<StoredJob> list() {
        return List.copyOf(jobs.values());
    }

    @Override
    public synchronized Optional<StoredJob> read(String id) {
        return Optional.ofNullable(jobs.get(id));
    }

    @Override
    public JobWrite create(Job job) {
        synchronized (this) {
            if (jobs.containsKey(job.id())) {
                return new JobWrite.Conflict(Optional.of(jobs.get(job.id())));
            }
        }
        return put(job, -1, Optional.empty());
    }

    @Override
    public JobWrite compareAndSet(long expectedVersion, Job job, Optional<RunnerLease> runner) {
        return put(job, expectedVersion, runner);
    }

    /** {@code expectedVersion} -1: create. */
    private JobWrite put(Job job, long expectedVersion, Optional<RunnerLease> runner) {
        List<Consumer<String>> notify;
        long version;
        synchronized (this) {
            StoredJob current = jobs.get(job.id());
            boolean matches = expectedVersion < 0 ? current == null : current != null && current.version() == expectedVersion;
            if (!matches || runner.map(lease -> leases.get(job.id()) != lease || lease.lost()).orElse(false)) {
                return new JobWrite.Conflict(Optional.ofNullable(current));
            }
            version = lastVersion + 1;
            TreeMap<String, StoredJob> next = new TreeMap<>(jobs);
            next.put(job.id(), new StoredJob(job, version));
            if (file.isPresent()) {
                writeFile(file.get(), next);
            }
            lastVersion = version;
            jobs.put(job.id(), new StoredJob(job, version));
            notify = List.copyOf(listeners);
        }
        delivery.execute(() -> notify.forEach(listener -> listener.accept(job.id())));
        return new JobWrite.Written(version);
    }

    private void writeFile(Path path, TreeMap<String, StoredJob> all) {
        ObjectNode root = json.mapper().createObjectNode();
        ArrayNode array = root.putArray("jobs");
        try {
            for (StoredJob stored : all.values()) {
                array.addObject().put("version", stored.version()).set("job", json.mapper().readTree(json.write(stored.job())));
            }
            Path temporary = path.resolveSibling("." + path.getFileName() + ".tmp");
            Files.writeString(temporary, json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(root));
            Files.move(temporary, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new TopologyStoreUnavailableException(describe() + ": cannot write the jobs back: " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void watch(Consumer<String> changed) {
        listeners.add(requireNonNull(changed, "changed is null"));
    }

    @Override
    public synchronized Optional<RunnerLease> tryTakeRunner(String jobId, String proxyId) {
        if (leases.containsKey(jobId)) {
            return Optional.empty();
        }
        FileLease lease = new FileLease(jobId, proxyId);
        leases.put(jobId, lease);
        return Optional.of(lease);
    }

    @Override
    public synchronized Optional<String> runner(String jobId) {
        return Optional.ofNullable(leases.get(jobId)).map(FileLease::holder);
    }

    @Override
    public boolean available() {
        return true;
    }

    @Override
    public String describe() {
        return file.map(path -> "file " + path).orElse("memory (the config was not loaded from a file)");
    }

    @Override
    public void close() {
        delivery.shutdownNow();
    }

    private synchronized void release(FileLease lease) {
        leases.remove(lease.jobId(), lease);
    }

    private final class FileLease implements RunnerLease {
        private final String jobId;
        private final String holder;
        private volatile boolean released;

        FileLease(String jobId, String holder) {
            this.jobId = jobId;
            this.holder = holder;
        }

        @Override
        public String jobId() {
            return jobId;
        }

        @Override
        public String holder() {
            return holder;
        }

        @Override
        public boolean lost() {
            return released;
        }

        @Override
        public void close() {
            released = true;
            release(this);
        }
    }
}
