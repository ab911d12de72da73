package io.shardgate.proxy.topology;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The last topology version a proxy applied, kept on its own disk (written through a temporary file
 * renamed over the old one), so a proxy that restarts while its store is away serves what it served
 * before rather than its config file's topology.
 */
public final class LocalCopy {
    private static final System.Logger LOG = System.getLogger(LocalCopy.class.getName());
    private final Path path;
    private final ObjectMapper json = new ObjectMapper();

    public LocalCopy(Path path) {
        this.path = requireNonNull(path, "path is null");
    }

    public Path path() {
        return path;
    }

    /** The copy on disk; empty when there is none or it cannot be read (then it is logged). */
    public Optional<StoredTopology> read() {
        try {
            JsonNode node = json.readTree(Files.readString(path));
            return Optional.of(new StoredTopology(node.get("version").asLong(), node.get("document").toString()));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot read the local topology copy " + path + ": " + e);
            return Optional.empty();
        }
    }

    /** Replaces the copy with {@code applied}; a failure is logged (the proxy serves on regardless). */
    public void write(StoredTopology applied) {
        try {
            ObjectNode node = json.createObjectNode();
            node.put("version", applied.version());
            node.set("document", json.readTree(applied.json()));
            Path parent = path.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Path temporary = path.resolveSibling("." + path.getFileName() + ".tmp");
            Files.writeString(temporary, json.writeValueAsString(node));
            Files.move(temporary, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot write the local topology copy " + path + ": " + e);
        }
    }
}
