package io.shardgate.proxy.topology;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.proxy.admin.AdminRoutes.Reply;
import io.shardgate.proxy.config.ConfigException;

import java.time.Duration;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * The admin API's topology operations, free of HTTP: each change reads the newest version, edits it,
 * records who made it, validates the whole document as this proxy would apply it, and writes it with
 * compare-and-set. Without {@code If-Match} a change that lost a race is made again on the newer
 * version (it is a change of one thing); with it, the caller learns of the race (409). A change
 * answers once this proxy serves it, so the caller's next statement through this proxy sees it.
 */
public final class TopologyAdmin {
    private static final int ATTEMPTS = 8;
    private final TopologyStore store;
    private final LiveTopology live;
    private final TopologyApplier applier;
    private final Duration applyWait;
    private final ObjectMapper mapper = new ObjectMapper();

    public TopologyAdmin(TopologyStore store, LiveTopology live, TopologyApplier applier, Duration applyWait) {
        this.store = requireNonNull(store, "store is null");
        this.live = requireNonNull(live, "live is null");
        this.applier = requireNonNull(applier, "applier is null");
        this.applyWait = requireNonNull(applyWait, "applyWait is null");
    }

    /**
     * Makes one change: {@code edit} changes a copy of the newest document's tree, {@code what} describes it.
     * {@code ifMatch}: the version the caller saw (-1: none).
     */
    public Reply change(String by, String what, long ifMatch, Consumer<ObjectNode> edit) {
        if (!store.available()) {
            return unavailable(null);
        }
        try {
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                StoredTopology base = store.read();
                if (ifMatch >= 0 && base.version() != ifMatch) {
                    return conflict(base.version());
                }
                ObjectNode tree;
                try {
                    tree = (ObjectNode) mapper.readTree(base.json());
                    edit.accept(tree);
                } catch (IllegalArgumentException | ClassCastException | JsonProcessingException e) {
                    return error(400, e.getMessage());
                }
                TopologyEdits.record(tree, TopologyEdits.change(base.version(), by, what));
                try {
                    applier.validate(tree.toString());
                } catch (ConfigException e) {
                    return error(400, "the topology would be invalid: " + e.getMessage());
                }
                TopologyWrite write = store.compareAndSet(base.version(), tree.toString());
                if (write instanceof TopologyWrite.Written written) {
                    return written(written.version());
                }
                if (ifMatch >= 0) {
                    return conflict(((TopologyWrite.Conflict) write).current().version());
                }
            }
            return error(409, "the topology kept changing under this change; try again");
        } catch (TopologyStoreUnavailableException e) {
            return unavailable(e);
        }
    }

    /**
     * {@link #change} for the proxy's own jobs: the version written (and applied here, or the wait ran out); throws
     * {@link IllegalStateException} with the reason when nothing was written.
     */
    public long commit(String by, String what, Consumer<ObjectNode> edit) {
        Reply reply = change(by, what, -1, edit);
        try {
            JsonNode body = mapper.readTree(reply.json());
            if (reply.status() != 200) {
                throw new IllegalStateException(body.path("error").asText(reply.json()));
            }
            return body.path("version").asLong();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(reply.json(), e);
        }
    }

    /** The store this proxy's topology lives in. */
    public TopologyStore store() {
        return store;
    }

    /** Replaces the whole document when the stored version is still {@code ifMatch}. */
    public Reply replace(String by, long ifMatch, String document) {
        return change(by, "replaced the whole document", ifMatch, tree -> {
            JsonNode next;
            try {
                next = mapper.readTree(document);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("the document is not valid JSON: " + e.getOriginalMessage());
            }
            if (next == null || !next.isObject()) {
                throw new IllegalArgumentException("the document must be a JSON object");
            }
            JsonNode history = tree.get("topology_history");
            tree.removeAll();
            tree.setAll((ObjectNode) next);
            if (history != null) {
                tree.set("topology_history", history); // the history is the store's, not the caller's to rewrite
            }
        });
    }

    /** {@code GET /api/v1/topology}: the stored version and document, this proxy's state, and every proxy's version. */
    public Reply topology() {
        ObjectNode body = mapper.createObjectNode();
        LiveTopology.Applied applied = live.applied();
        body.put("store", store.describe());
        body.put("state", live.state());
        body.put("applied_version", applied.version());
        body.put("applied_at_ms", applied.appliedAtMillis());
        try {
            StoredTopology stored = store.available() ? store.read() : new StoredTopology(applied.version(), applied.document().json());
            body.put("version", stored.version());
            body.set("document", mapper.readTree(stored.json()));
            ArrayNode proxies = body.putArray("proxies");
            for (ProxyRegistration proxy : store.registrations()) {
                ObjectNode node = proxies.addObject();
                node.put("id", proxy.id());
                node.put("address", proxy.address());
                node.put("admin_address", proxy.adminAddress());
                node.put("version", proxy.version());
                node.put("started", proxy.started().toString());
                proxy.holdsDrained().forEach(node.withArray("holds_drained")::add);
            }
        } catch (TopologyStoreUnavailableException e) {
            body.put("version", applied.version());
            body.set("document", applied.document().tree());
            body.putArray("proxies");
            body.put("store_error", e.getMessage());
        } catch (JsonProcessingException e) {
            return error(500, "the stored document is not JSON: " + e.getOriginalMessage());
        }
        LiveTopology.Refused refused = live.refused();
        if (refused != null) {
            body.putObject("refused").put("version", refused.version()).put("reason", refused.reason());
        }
        return new Reply(200, pretty(body));
    }

    /** {@code GET /api/v1/topology/history}: the changes, oldest first. */
    public Reply history() {
        LiveTopology.Applied applied = live.applied();
        ArrayNode changes = mapper.createArrayNode();
        for (TopologyChange change : applied.document().history()) {
            changes.addObject().put("from_version", change.fromVersion()).put("at", change.at().toString())
                    .put("by", change.by()).put("what", change.what());
        }
        return new Reply(200, pretty(changes));
    }

    private Reply written(long version) {
        boolean appliedHere = live.awaitVersion(version, applyWait); // the store's watch drives the applier
        ObjectNode body = mapper.createObjectNode().put("version", version).put("applied_here", appliedHere);
        LiveTopology.Refused refused = live.refused();
        if (refused != null && refused.version() == version) {
            body.put("refused_here", refused.reason());
        }
        return new Reply(200, pretty(body));
    }

    private Reply conflict(long current) {
        ObjectNode body = mapper.createObjectNode().put("error", "the topology is at version " + current
                + ", not the version this change was made to (If-Match); read it again").put("current_version", current);
        return new Reply(409, pretty(body));
    }

    private Reply unavailable(TopologyStoreUnavailableException e) {
        return error(503, "the topology store (" + store.describe() + ") cannot be reached; changes are refused until it is back"
                + (e == null ? "" : ": " + e.getMessage()) + ". This proxy serves version " + live.version() + ".");
    }

    private Reply error(int status, String message) {
        return new Reply(status, pretty(mapper.createObjectNode().put("error", message)));
    }

    private String pretty(JsonNode node) {
        try {
            return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(node) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
