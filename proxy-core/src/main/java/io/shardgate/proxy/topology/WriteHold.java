package io.shardgate.proxy.topology;

import java.time.Instant;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A cutover's hold on new writes to some shards, as the topology document carries it ({@code write_holds}): every
 * proxy that applies the version holds them, for at most {@code maxHoldMs} from then, and tells the store once the
 * writes it had under way there are done.
 *
 * @param job       the job whose cutover asked for it
 * @param shards    the shards whose writes wait
 * @param maxHoldMs the longest a write waits on a proxy before it fails with {@code WRITES_HELD}
 * @param since     when the cutover wrote it
 */
public record WriteHold(String job, List<String> shards, long maxHoldMs, Instant since) {
    public WriteHold {
        requireNonNull(job, "job is null");
        shards = List.copyOf(requireNonNull(shards, "shards is null"));
        requireNonNull(since, "since is null");
    }
}
