package io.shardgate.proxy.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JobJsonTest {
    private static final Instant T0 = Instant.parse("2026-11-26T15:32:00Z");
    private final JobJson json = new JobJson();

    static Job reshard() {
        ReshardSpec spec = new ReshardSpec("s1", List.of(
                new ReshardSpec.Target("s1a", "10.0.0.1:3306", List.of("10.0.0.2:3306"), "innodb", "80-c0"),
                new ReshardSpec.Target("s1b", "10.0.0.3:3306", List.of(), "rocksdb", "c0-")));
        return Job.create("reshard-s1-20261126-1532-ab12", JobKind.RESHARD, spec.toJson(), "alice", T0);
    }

    @Test
    void everyFieldSurvivesARoundTripWithSnakeCaseKeys() throws Exception {
        Job job = reshard()
                .withPhase(JobPhase.COPYING, "proxy-a", T0.plusSeconds(1))
                .withTable("shop.orders", new Job.TableProgress(500, 1000, "{\"id\":500}", "0-1-77", 2500.5, 1L))
                .withDiff(new Job.DiffProgress(3, 20, 150000, 2))
                .withStreamLag(0.4)
                .withThrottle("replica 10.0.0.2:3306 lags 1.3 s")
                .withError("boom")
                .withRequestedAction(new Job.ActionRequest(JobAction.CUTOVER, "bob", T0.plusSeconds(2).toString()))
                .withRunner("proxy-a")
                .withCheckpoint("copy", JsonNodeFactory.instance.objectNode().put("shop.orders", 500))
                .withPhase(JobPhase.CUTTING_OVER, "proxy-a", T0.plusSeconds(3));
        String text = json.write(job);
        assertThat(json.read(text)).isEqualTo(job);

        JsonNode tree = new ObjectMapper().readTree(text);
        assertThat(tree.get("phase").asText()).isEqualTo("cutting_over");
        assertThat(tree.get("kind").asText()).isEqualTo("reshard");
        assertThat(tree.get("requested_action").get("action").asText()).isEqualTo("cutover");
        assertThat(tree.get("tables").get("shop.orders").get("rows_copied").asLong()).isEqualTo(500);
        assertThat(tree.get("diff").get("chunks_total").asLong()).isEqualTo(20);
        assertThat(tree.get("stream_lag_seconds").asDouble()).isEqualTo(0.4);
        assertThat(tree.get("created_by").asText()).isEqualTo("alice");
        assertThat(tree.get("updated_at").asText()).isEqualTo("2026-11-26T15:32:03Z");
        assertThat(tree.get("history")).hasSize(3);
        assertThat(tree.get("spec").get("targets").get(0).get("key_range").asText()).isEqualTo("80-c0");
        assertThat(job.reshardSpec().targets().get(1).engine()).isEqualTo("rocksdb");
        assertThat(job.checkpoint("copy").orElseThrow().get("shop.orders").asLong()).isEqualTo(500);
    }

    @Test
    void theCheckpointsAndSpecCannotBeChangedInPlace() {
        Job job = reshard().withCheckpoint("k", JsonNodeFactory.instance.textNode("v"));
        job.checkpoints().put("k", "changed");
        job.spec().put("source", "s9");
        assertThat(job.checkpoint("k").orElseThrow().asText()).isEqualTo("v");
        assertThat(job.reshardSpec().source()).isEqualTo("s1");
        assertThat(job.withCheckpoint("k", null).checkpoint("k")).isEmpty();
    }

    @Test
    void unknownKeysAreIgnoredAndNonsenseIsRefused() {
        String text = json.write(reshard()).replaceFirst("\\{", "{\"added_later\":1,");
        assertThat(json.read(text).id()).isEqualTo("reshard-s1-20261126-1532-ab12");
        assertThatThrownBy(() -> json.read("{\"id\":\"x\",\"kind\":\"explode\",\"phase\":\"created\"}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("explode");
        assertThatThrownBy(() -> json.read("[1]")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> reshard().moveSpec()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void terminalPhasesAndActionsValidIn() {
        assertThat(JobPhase.DONE.terminal()).isTrue();
        assertThat(JobPhase.READY.terminal()).isFalse();
        assertThat(JobAction.CUTOVER.validIn(JobPhase.READY)).isTrue();
        assertThat(JobAction.CUTOVER.validIn(JobPhase.COPYING)).isFalse();
        assertThat(JobAction.CANCEL.validIn(JobPhase.SWITCHED)).isFalse();
        assertThat(JobAction.REVERSE.validIn(JobPhase.SWITCHED)).isTrue();
    }
}
