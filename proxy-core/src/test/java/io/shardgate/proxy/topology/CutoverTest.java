package io.shardgate.proxy.topology;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.proxy.config.ConfigLoader;
import io.shardgate.proxy.config.ShardConfig;
import io.shardgate.proxy.config.ShardgateConfig;
import io.shardgate.proxy.routing.Drains;
import io.shardgate.router.schema.ShardingSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cutover's protocol over the file store, with this proxy as the only one: the hold, every proxy's report that
 * its writes there are done, the caller's step, and the switch; and the aborts (a step that fails, a proxy that
 * never reports). The applier here has no backends: it validates, records and tells its cutover listener.
 */
class CutoverTest {
    static final String CONFIG = """
            admin: { token: change-me }
            users:
              - { name: app, password: app }
            backend_user: { name: shardgate, password: secret }
            shards:
              - { name: s0, primary: "127.0.0.1:24001", key_range: "-80" }
              - { name: s1, primary: "127.0.0.1:24002", key_range: "80-" }
              - { name: s2, primary: "127.0.0.1:24003", key_range: none }
              - { name: s3, primary: "127.0.0.1:24004", key_range: none }
            schemas:
              - name: shop
                tables:
                  customers: { shard_key: id, vindex: hash }
            """;

    private final ConfigLoader loader = new ConfigLoader();
    private final Drains drains = new Drains();
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final AtomicBoolean reportDrained = new AtomicBoolean(true);
    private FileTopologyStore store;
    private LiveTopology live;

    @AfterEach
    void close() {
        drains.close();
        if (store != null) {
            store.close();
        }
    }

    private Cutover cutover() {
        ShardgateConfig config = loader.parse(CONFIG);
        live = new LiveTopology(config.topology().version(), config.topology().document(), "file");
        store = new FileTopologyStore(config.topology().file(), new StoredTopology(config.topology().version(),
                config.topology().document().json()));
        ProxyRegistration me = new ProxyRegistration("p1", "127.0.0.1:3307", "127.0.0.1:8080", live.version(), Instant.now());
        store.register(me);
        TopologyApplier applier = new TopologyApplier(live, List.of(), TopologyAdminTest.factory(config), drains, Duration.ofSeconds(1),
                loader, version -> { });
        applier.onCutover(new TopologyApplier.CutoverListener() {
            @Override
            public void shardMap(ShardingSchema next) {
                events.add("map " + next.shards());
            }

            @Override
            public void holds(List<WriteHold> holds, long version) {
                events.add("holds " + holds.stream().map(hold -> hold.job() + hold.shards()).toList());
                List<String> drained = reportDrained.get() ? holds.stream().map(WriteHold::job).toList() : List.of();
                store.register(me.withVersion(version).withHoldsDrained(drained));
            }
        });
        store.watch(live.version(), applier::apply);
        return new Cutover(new TopologyAdmin(store, live, applier, Duration.ofSeconds(5)), Clock.systemUTC());
    }

    private static void split(ObjectNode tree) {
        for (var shard : tree.withArray("shards")) {
            String name = shard.get("name").asText();
            String range = switch (name) {
                case "s1" -> "none";
                case "s2" -> "80-c0";
                case "s3" -> "c0-";
                default -> shard.get("key_range").asText();
            };
            ((ObjectNode) shard).put("key_range", range);
        }
    }

    private static Cutover.Request request(Duration ackTimeout) {
        return new Cutover.Request("reshard-1", List.of("s1"), CutoverTest::split, Duration.ofSeconds(5), ackTimeout);
    }

    @Test
    void holdsThenRunsTheStepThenSwitchesTheKeysAndLiftsTheHoldInOneVersion() throws Exception {
        Cutover cutover = cutover();
        Cutover.Outcome outcome = cutover.run(request(Duration.ofSeconds(2)), remaining -> {
            assertThat(remaining).isPositive();
            assertThat(live.applied().document().holds()).singleElement().satisfies(hold -> {
                assertThat(hold.job()).isEqualTo("reshard-1");
                assertThat(hold.shards()).containsExactly("s1");
                assertThat(hold.maxHoldMs()).isEqualTo(5000);
            });
            events.add("step");
        });
        assertThat(outcome.switched()).as(outcome.reason()).isTrue();
        assertThat(outcome.switchVersion()).isEqualTo(outcome.holdVersion() + 1);
        assertThat(events).containsExactly("holds [reshard-1[s1]]", "step", "map [" + "Shard[name=s0, keyRange=-80], "
                + "Shard[name=s2, keyRange=80-c0], Shard[name=s3, keyRange=c0-]]", "holds []");
        TopologyDocument now = live.applied().document();
        assertThat(now.holds()).isEmpty();
        assertThat(now.shards()).extracting(ShardConfig::name, ShardConfig::keyRange)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("s0", "-80"), org.assertj.core.groups.Tuple.tuple("s1", "none"),
                        org.assertj.core.groups.Tuple.tuple("s2", "80-c0"), org.assertj.core.groups.Tuple.tuple("s3", "c0-"));
        assertThat(now.history()).extracting(TopologyChange::what).anyMatch(what -> what.contains("held writes to [s1]"))
                .anyMatch(what -> what.contains("moved keys"));
    }

    @Test
    void aStepThatFailsLiftsTheHoldAndMovesNoKey() throws Exception {
        Cutover cutover = cutover();
        Cutover.Outcome outcome = cutover.run(request(Duration.ofSeconds(2)), remaining -> {
            throw new IllegalStateException("target s2 did not reach 0-1-500");
        });
        assertThat(outcome.switched()).isFalse();
        assertThat(outcome.reason()).contains("did not reach");
        TopologyDocument now = live.applied().document();
        assertThat(now.holds()).isEmpty();
        assertThat(now.shard("s1").orElseThrow().keyRange()).isEqualTo("80-");
        assertThat(now.history()).extracting(TopologyChange::what).anyMatch(what -> what.startsWith("aborted"));
        assertThat(events).noneMatch(event -> event.startsWith("map"));
    }

    @Test
    void aCancelWhileTheProxiesDrainAbortsAtOnceAndLiftsTheHold() throws Exception {
        Cutover cutover = cutover();
        reportDrained.set(false); // a proxy that would keep the cutover waiting for the whole ack timeout
        java.util.concurrent.atomic.AtomicInteger polls = new java.util.concurrent.atomic.AtomicInteger();
        Cutover.Outcome outcome = cutover.run(request(Duration.ofSeconds(30)), new Cutover.Steps() {
            @Override
            public void quiesced(Duration remaining) {
                events.add("step");
            }

            @Override
            public String abandoned() {
                return polls.incrementAndGet() > 3 ? "the job was cancelled" : null;
            }
        });
        assertThat(outcome.switched()).isFalse();
        assertThat(outcome.reason()).isEqualTo("the job was cancelled");
        assertThat(polls.get()).as("given up at the first poll after the cancel").isEqualTo(4);
        assertThat(events).doesNotContain("step");
        assertThat(live.applied().document().holds()).isEmpty();
        assertThat(live.applied().document().shard("s1").orElseThrow().keyRange()).isEqualTo("80-");
    }

    @Test
    void aProxyThatNeverReportsItsWritesDoneAbortsWithinTheAckTimeout() throws Exception {
        Cutover cutover = cutover();
        reportDrained.set(false);
        long start = System.nanoTime();
        Cutover.Outcome outcome = cutover.run(request(Duration.ofMillis(300)), remaining -> events.add("step"));
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertThat(outcome.switched()).isFalse();
        assertThat(outcome.reason()).contains("p1").contains("300 ms");
        assertThat(events).doesNotContain("step");
        assertThat(tookMillis).as("aborted within its timeout, plus two writes").isLessThan(5_000);
        assertThat(live.applied().document().holds()).isEmpty();
        // A later attempt succeeds.
        reportDrained.set(true);
        assertThat(cutover.run(request(Duration.ofSeconds(2)), remaining -> { }).switched()).isTrue();
    }

    @Test
    void keysMoveOnlyUnderAHoldOnTheShardsThatLoseThem() {
        TopologyDocument current = loader.parse(CONFIG).topology().document();
        ObjectNode moved = current.tree().deepCopy();
        split(moved);
        assertThat(TopologyChecks.problems(current, loader.topology(moved.toString())))
                .anyMatch(problem -> problem.contains("shards.s1.key_range changes while the writes"));
        ObjectNode held = current.tree().deepCopy();
        held.withArray("write_holds").addObject().put("job", "j").put("max_hold_ms", 1000).put("since", "2026-11-26T12:00:00Z")
                .putArray("shards").add("s1");
        TopologyDocument holding = loader.topology(held.toString());
        assertThat(TopologyChecks.problems(current, holding)).isEmpty();
        assertThat(TopologyChecks.problems(holding, loader.topology(moved.toString()))).isEmpty();
        ObjectNode wrongHold = held.deepCopy();
        ((ObjectNode) wrongHold.withArray("write_holds").get(0)).putArray("shards").add("s0");
        assertThat(TopologyChecks.problems(loader.topology(wrongHold.toString()), loader.topology(moved.toString())))
                .as("s1 loses keys but only s0 is held").isNotEmpty();
    }

    @Test
    void aProxyThatStartsDuringACutoverHoldsTheWritesAtOnce() {
        ShardgateConfig config = loader.parse(CONFIG + """
                write_holds:
                  - { job: reshard-1, shards: [s1], max_hold_ms: 5000, since: "2026-11-26T12:00:00Z" }
                """);
        LiveTopology started = new LiveTopology(config.topology().version(), config.topology().document(), "file");
        TopologyApplier applier = new TopologyApplier(started, List.of(), TopologyAdminTest.factory(config), drains,
                Duration.ofSeconds(1), loader, version -> { });
        List<String> told = new CopyOnWriteArrayList<>();
        applier.onCutover(new TopologyApplier.CutoverListener() {
            @Override
            public void shardMap(ShardingSchema next) {
                told.add("map");
            }

            @Override
            public void holds(List<WriteHold> holds, long version) {
                holds.forEach(hold -> told.add(hold.job() + hold.shards()));
            }
        });
        assertThat(told).containsExactly("reshard-1[s1]");
    }
}
