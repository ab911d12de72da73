package io.shardgate.proxy.topology;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * Moves keys from one set of shards to another across every proxy of the deployment, with a bounded write pause:
 * <ol>
 *   <li>a topology version holds new writes to the moving shards ({@code write_holds}) on every proxy;</li>
 *   <li>each proxy reports, in its registration, once the writes it had under way there are done; a proxy that does
 *       not within {@link Request#ackTimeout} aborts the cutover;</li>
 *   <li>only then does {@link Steps#quiesced} run: the caller records the source's position, which now covers every
 *       acknowledged write, and waits for the targets to apply up to it;</li>
 *   <li>one version switches the shard map ({@link Request#switchEdit}) and lifts the hold: held writes go to the new
 *       shards.</li>
 * </ol>
 * Any failure before the switch lifts the hold with nothing else changed, so writes flow to the source again.
 */
public final class Cutover {
    private static final System.Logger LOG = System.getLogger(Cutover.class.getName());
    private static final Duration POLL = Duration.ofMillis(5);

    /** What the caller does while every proxy holds the writes: record the source position, let the targets reach it. */
    @FunctionalInterface
    public interface Steps {
        /** Throws to abort; {@code remaining}: the time left before the hold's bound. */
        void quiesced(Duration remaining) throws Exception;

        /** Null to go on waiting for the proxies; else why the cutover gives up now (an operator's cancel). */
        default String abandoned() {
            return null;
        }
    }

    /**
     * @param job        the job (named in the hold, the history and errors)
     * @param shards     the shards whose writes are held: those losing keys
     * @param switchEdit changes the document's key ranges (the hold is lifted in the same version)
     * @param maxHold    how long a write may wait on a proxy before it fails ({@code WRITES_HELD})
     * @param ackTimeout how long every proxy has to report its writes on the held shards done
     */
    public record Request(String job, List<String> shards, Consumer<ObjectNode> switchEdit, Duration maxHold, Duration ackTimeout) {
        public Request {
            requireNonNull(job, "job is null");
            shards = List.copyOf(requireNonNull(shards, "shards is null"));
            requireNonNull(switchEdit, "switchEdit is null");
            requireNonNull(maxHold, "maxHold is null");
            requireNonNull(ackTimeout, "ackTimeout is null");
        }
    }

    /**
     * How it went. {@code holdVersion} and {@code switchVersion} (0 when it did not switch); {@code acknowledged}: from
     * the hold's write until every proxy had drained; {@code held}: from the hold's write until the switch was written.
     */
    public record Outcome(boolean switched, String reason, long holdVersion, long switchVersion, Duration acknowledged,
                          Duration held) {
    }

    private final TopologyAdmin admin;
    private final Clock clock;

    public Cutover(TopologyAdmin admin, Clock clock) {
        this.admin = requireNonNull(admin, "admin is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public Outcome run(Request request, Steps steps) throws InterruptedException {
        String by = "cutover " + request.job();
        long start = clock.millis();
        long holdVersion = admin.commit(by, "held writes to " + request.shards(), tree -> hold(tree, request));
        long heldAt = clock.millis();
        long acknowledged = -1;
        try {
            awaitDrained(request, steps, holdVersion, heldAt + request.ackTimeout().toMillis());
            acknowledged = clock.millis() - heldAt;
            steps.quiesced(Duration.ofMillis(Math.max(0, heldAt + request.maxHold().toMillis() - clock.millis())));
            long switchVersion = admin.commit(by, "moved keys from " + request.shards() + " and released their writes", tree -> {
                request.switchEdit().accept(tree);
                lift(tree, request.job());
            });
            Duration held = Duration.ofMillis(clock.millis() - heldAt);
            LOG.log(System.Logger.Level.INFO, "job " + request.job() + ": keys moved in version " + switchVersion + "; writes held "
                    + held.toMillis() + " ms (every proxy drained in " + acknowledged + " ms, " + (heldAt - start) + " ms to hold)");
            return new Outcome(true, "switched", holdVersion, switchVersion, Duration.ofMillis(acknowledged), held);
        } catch (InterruptedException e) {
            abort(by, request, "interrupted");
            throw e;
        } catch (Exception e) {
            String reason = e.getMessage() == null ? e.toString() : e.getMessage();
            abort(by, request, reason);
            return new Outcome(false, reason, holdVersion, 0, Duration.ofMillis(Math.max(0, acknowledged)),
                    Duration.ofMillis(clock.millis() - heldAt));
        }
    }

    /** Waits until every registered proxy serves {@code version} or later and has drained the job's hold. */
    private void awaitDrained(Request request, Steps steps, long version, long deadline) throws InterruptedException {
        while (true) {
            String abandoned = steps.abandoned();
            if (abandoned != null) {
                throw new IllegalStateException(abandoned);
            }
            List<ProxyRegistration> proxies = admin.store().registrations();
            List<String> waiting = proxies.stream()
                    .filter(proxy -> proxy.version() < version || !proxy.holdsDrained().contains(request.job()))
                    .map(ProxyRegistration::id).toList();
            if (waiting.isEmpty() && !proxies.isEmpty()) {
                return;
            }
            if (clock.millis() >= deadline) {
                throw new IllegalStateException("proxies " + waiting + " did not report their writes to " + request.shards()
                        + " done within " + request.ackTimeout().toMillis() + " ms (a transaction open there?)");
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    private void abort(String by, Request request, String reason) {
        LOG.log(System.Logger.Level.WARNING, "job " + request.job() + ": cutover aborted, writes go to " + request.shards()
                + " again: " + reason);
        try {
            admin.commit(by, "aborted: released writes to " + request.shards() + " (" + reason + ")", tree -> lift(tree, request.job()));
        } catch (RuntimeException e) {
            // Each proxy still fails a held write after maxHold; the job reports this and an operator lifts it.
            LOG.log(System.Logger.Level.ERROR, "job " + request.job() + ": could not lift the write hold: " + e.getMessage());
            throw e;
        }
    }

    private void hold(ObjectNode tree, Request request) {
        lift(tree, request.job());
        ArrayNode holds = tree.withArray("write_holds");
        ObjectNode hold = holds.addObject().put("job", request.job());
        request.shards().forEach(hold.putArray("shards")::add);
        hold.put("max_hold_ms", request.maxHold().toMillis()).put("since", clock.instant().toString());
    }

    /** Removes {@code job}'s write hold from {@code tree} (a cutover that ends, or one its runner left behind). */
    public static void lift(ObjectNode tree, String job) {
        if (!(tree.get("write_holds") instanceof ArrayNode holds)) {
            return;
        }
        for (int i = holds.size() - 1; i >= 0; i--) {
            if (job.equals(holds.get(i).path("job").asText())) {
                holds.remove(i);
            }
        }
        if (holds.isEmpty()) {
            tree.remove("write_holds");
        }
    }
}
