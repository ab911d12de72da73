package io.shardgate.proxy.topology;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * The topology store of a single proxy: its config file. A write replaces the file's topology sections
 * ({@code shards}, {@code schemas}, {@code routing}, {@code backend_states}, {@code topology_history})
 * and its {@code topology_version}, keeping every other section, through a temporary file renamed over
 * the original, so a restart serves what the last write said and a crash never leaves half a file.
 * The file is rewritten by Jackson: its comments and layout are not kept. A config built without a
 * file keeps its writes in memory.
 */
public final class FileTopologyStore implements TopologyStore {
    private final Optional<Path> file;
    private final ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
    private final ObjectMapper json = new ObjectMapper();
    private final List<Consumer<StoredTopology>> listeners = new ArrayList<>();
    private final ExecutorService delivery = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "shardgate-topology-file");
        thread.setDaemon(true);
        return thread;
    });
    private StoredTopology current;
    private ProxyRegistration registration;

    public FileTopologyStore(Optional<Path> file, StoredTopology initial) {
        this.file = requireNonNull(file, "file is null");
        this.current = requireNonNull(initial, "initial is null");
    }

    @Override
    public synchronized StoredTopology read() {
        return current;
    }

    @Override
    public TopologyWrite compareAndSet(long expectedVersion, String document) {
        StoredTopology written;
        List<Consumer<StoredTopology>> notify;
        synchronized (this) {
            if (expectedVersion != current.version()) {
                return new TopologyWrite.Conflict(current);
            }
            written = new StoredTopology(current.version() + 1, document);
            if (file.isPresent()) {
                writeFile(file.get(), written);
            }
            current = written;
            notify = List.copyOf(listeners);
        }
        delivery.execute(() -> notify.forEach(listener -> listener.accept(written)));
        return new TopologyWrite.Written(written.version());
    }

    /** Replaces the topology sections of the config file, atomically; throws when the file cannot be written. */
    private void writeFile(Path path, StoredTopology written) {
        try {
            ObjectNode config = (ObjectNode) yaml.readTree(Files.readString(path));
            JsonNode topology = json.readTree(written.json());
            for (String key : TopologyDocument.KEYS) {
                config.remove(key);
                if (topology.hasNonNull(key)) {
                    config.set(key, topology.get(key));
                }
            }
            config.put("topology_version", written.version());
            Path temporary = path.resolveSibling("." + path.getFileName() + ".tmp");
            Files.writeString(temporary, yaml.writeValueAsString(config));
            Files.move(temporary, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | ClassCastException e) {
            throw new TopologyStoreUnavailableException(describe() + ": cannot write the topology back: " + e.getMessage(), e);
        }
    }

    @Override
    public void watch(long afterVersion, Consumer<StoredTopology> listener) {
        StoredTopology now;
        synchronized (this) {
            listeners.add(requireNonNull(listener, "listener is null"));
            now = current;
        }
        if (now.version() > afterVersion) {
            delivery.execute(() -> listener.accept(now));
        }
    }

    @Override
    public synchronized void register(ProxyRegistration proxy) {
        this.registration = requireNonNull(proxy, "proxy is null");
    }

    @Override
    public synchronized List<ProxyRegistration> registrations() {
        return registration == null ? List.of() : List.of(registration);
    }

    @Override
    public boolean available() {
        return true;
    }

    @Override
    public String describe() {
        return file.map(path -> "file " + path).orElse("file (in memory: the config was not loaded from a file)");
    }

    @Override
    public void close() {
        delivery.shutdownNow();
    }
}
