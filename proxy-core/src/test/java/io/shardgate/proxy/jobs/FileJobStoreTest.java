package io.shardgate.proxy.jobs;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

class FileJobStoreTest {
    @TempDir
    Path dir;
    private final List<FileJobStore> stores = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        stores.forEach(FileJobStore::close);
    }

    private FileJobStore store(Optional<Path> file) {
        FileJobStore store = new FileJobStore(file);
        stores.add(store);
        return store;
    }

    @Test
    void createsOnceThenComparesAndSetsOnTheVersion() {
        FileJobStore store = store(Optional.empty());
        Job job = JobJsonTest.reshard();
        long v1 = ((JobWrite.Written) store.create(job)).version();
        assertThat(store.create(job)).isEqualTo(new JobWrite.Conflict(Optional.of(new StoredJob(job, v1))));

        Job copying = job.withPhase(JobPhase.COPYING, "p", Instant.EPOCH);
        long v2 = ((JobWrite.Written) store.compareAndSet(v1, copying, Optional.empty())).version();
        assertThat(v2).isGreaterThan(v1);
        assertThat(store.compareAndSet(v1, job, Optional.empty()))
                .isEqualTo(new JobWrite.Conflict(Optional.of(new StoredJob(copying, v2))));
        assertThat(store.read(job.id())).contains(new StoredJob(copying, v2));
        assertThat(store.list()).containsExactly(new StoredJob(copying, v2));
        assertThat(store.read("nope")).isEmpty();
    }

    @Test
    void writesTheFileAtomicallyAndAReopenedStoreReadsIt() throws Exception {
        Path file = dir.resolve("shardgate-jobs.json");
        FileJobStore store = store(Optional.of(file));
        Job job = JobJsonTest.reshard();
        long version = ((JobWrite.Written) store.create(job)).version();
        assertThat(Files.readString(file)).contains("reshard-s1-20261126-1532-ab12");
        assertThat(Files.list(dir).map(path -> path.getFileName().toString())).containsExactly("shardgate-jobs.json");

        FileJobStore reopened = store(Optional.of(file));
        assertThat(reopened.list()).containsExactly(new StoredJob(job, version));
        long next = ((JobWrite.Written) reopened.compareAndSet(version, job.withError("x"), Optional.empty())).version();
        assertThat(next).as("versions keep growing after a restart").isGreaterThan(version);
    }

    @Test
    void oneRunnerAtATimeAndAReleasedLeaseCannotWrite() {
        FileJobStore store = store(Optional.empty());
        Job job = JobJsonTest.reshard();
        long version = ((JobWrite.Written) store.create(job)).version();
        RunnerLease lease = store.tryTakeRunner(job.id(), "proxy-a").orElseThrow();
        assertThat(store.tryTakeRunner(job.id(), "proxy-b")).isEmpty();
        assertThat(store.runner(job.id())).contains("proxy-a");

        long written = ((JobWrite.Written) store.compareAndSet(version, job.withError("a"), Optional.of(lease))).version();
        lease.close();
        assertThat(lease.lost()).isTrue();
        assertThat(store.runner(job.id())).isEmpty();
        assertThat(store.compareAndSet(written, job.withError("late"), Optional.of(lease))).isInstanceOf(JobWrite.Conflict.class);
        assertThat(store.tryTakeRunner(job.id(), "proxy-b")).isPresent();
    }

    @Test
    void watchersHearOfEveryWrite() {
        FileJobStore store = store(Optional.empty());
        List<String> heard = new CopyOnWriteArrayList<>();
        store.watch(heard::add);
        store.create(JobJsonTest.reshard());
        Eventually.until("the watcher hears of the new job", Duration.ofSeconds(5), () -> heard.size() == 1);
        assertThat(heard).containsExactly("reshard-s1-20261126-1532-ab12");
    }
}
