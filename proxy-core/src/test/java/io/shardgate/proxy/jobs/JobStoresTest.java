package io.shardgate.proxy.jobs;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Each single proxy keeps its own jobs: two config files in one directory never share a jobs file. */
class JobStoresTest {
    @Test
    void theJobsFileIsNamedAfterTheConfigFile() {
        assertThat(JobStores.fileFor(Path.of("/etc/shardgate/a.yaml"))).isEqualTo(Path.of("/etc/shardgate/a.jobs.json"));
        assertThat(JobStores.fileFor(Path.of("/etc/shardgate/b.yaml"))).isEqualTo(Path.of("/etc/shardgate/b.jobs.json"));
        assertThat(JobStores.fileFor(Path.of("/srv/shardgate"))).isEqualTo(Path.of("/srv/shardgate.jobs.json"));
    }
}
