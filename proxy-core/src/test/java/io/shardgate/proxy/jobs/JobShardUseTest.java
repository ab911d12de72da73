package io.shardgate.proxy.jobs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.proxy.topology.ShardUse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Which job keeps a shard from being removed: one that has not ended, naming it as its source or a target. */
class JobShardUseTest {
    private static final Instant AT = Instant.parse("2026-11-26T15:32:10Z");
    private final FileJobStore store = new FileJobStore(Optional.empty());
    private final ObjectMapper json = new ObjectMapper();
    private final ShardUse use = JobService.shardUse(store);

    @AfterEach
    void close() {
        store.close();
    }

    private void store(String id, JobKind kind, String spec, JobPhase phase) throws Exception {
        Job job = Job.create(id, kind, (ObjectNode) json.readTree(spec), "alice", AT);
        store.create(job);
        if (phase != JobPhase.CREATED) {
            StoredJob stored = store.read(id).orElseThrow();
            assertThat(store.compareAndSet(stored.version(), job.withPhase(phase, "p1", AT), Optional.empty()))
                    .isInstanceOf(JobWrite.Written.class);
        }
    }

    @Test
    void aJobThatHasNotEndedUsesItsSourceAndTargetsAndAnEndedOneNothing() throws Exception {
        store("r-1", JobKind.RESHARD, """
                {"source": "s1", "targets": [{"name": "s8", "primary": "h:1", "key_range": "80-c0"},
                                             {"name": "s9", "primary": "h:2", "key_range": "c0-"}]}""", JobPhase.STREAMING);
        store("r-2", JobKind.RESHARD, """
                {"source": "s1", "targets": [{"name": "s10", "primary": "h:3", "key_range": "80-"}]}""", JobPhase.CANCELLED);
        store("r-3", JobKind.RESHARD, """
                {"source": "s2", "targets": [{"name": "s11", "primary": "h:4", "key_range": "-"}]}""", JobPhase.SWITCHED);
        store("m-1", JobKind.MOVE, """
                {"tables": ["shop.audit"], "source": "s0", "target": "s12", "engine": "innodb"}""", JobPhase.COPYING);

        assertThat(use.usedBy("s9")).contains("job r-1 (reshard, phase streaming) has it as its target and has not ended:"
                + " cancel the job, or let it end, first");
        assertThat(use.usedBy("s1")).get().asString().startsWith("job r-1 ").contains("as its source");
        assertThat(use.usedBy("s10")).as("a cancelled job's target").isEmpty();
        assertThat(use.usedBy("s11")).get().asString().contains("phase switched").contains("complete or reverse the job");
        assertThat(use.usedBy("s12")).get().asString().startsWith("job m-1 (move, phase copying) has it as its target");
        assertThat(use.usedBy("s5")).isEmpty();
        ShardUse log = shard -> shard.equals("s5") ? Optional.of("the log") : Optional.empty();
        assertThat(log.or(use).usedBy("s5")).contains("the log");
        assertThat(log.or(use).usedBy("s9")).get().asString().startsWith("job r-1");
    }
}
