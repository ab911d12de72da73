package io.shardgate.tools.bench;

import io.shardgate.router.shard.KeyRange;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code bench reshard} measured, as the table it prints, and the check of the probes' writes against the rows on
 * the shards afterwards.
 *
 * @param sourceRows   rows of {@code sbtest1} on the source shard when the job started
 * @param copyRows     rows the job copied (all tables), and {@code copySeconds} from its {@code copying} to its
 *                     {@code streaming} phase (its history)
 * @param diffRows     rows the job's diff compared, {@code diffSeconds} from {@code diffing} to {@code ready}
 * @param pausesMs     per proxy, the longest time between two acknowledged probe writes around the cutover
 * @param writesHeldMs the job's own {@code checkpoints.cutover.writes_held_ms} (-1 when absent)
 */
record ReshardReport(long rows, long sourceRows, long copyRows, double copySeconds, ReshardBaselines.Rate dump,
                     long diffRows, double diffSeconds, ReshardBaselines.Rate crc, long mismatches, List<Long> pausesMs,
                     long writesHeldMs, List<Integer> acknowledged, int cutoverAttempts, double elapsedSeconds) {

    double copyRate() {
        return copyRows / copySeconds;
    }

    double diffRate() {
        return diffRows / diffSeconds;
    }

    void print(PrintStream out) {
        out.println("| measure | reshard job | baseline, same table, same run | ratio | target |");
        out.println("|---|---|---|---|---|");
        out.printf(Locale.ROOT, "| copy | %,d rows in %.1f s: %,.0f rows/s | dump \\| load of s1's %,d rows: %.1f s, %,.0f rows/s"
                        + " | %.2fx | >= 1.0x |%n", copyRows, copySeconds, copyRate(), dump.rows(), dump.seconds(), dump.rowsPerSecond(),
                copyRate() / dump.rowsPerSecond());
        out.printf(Locale.ROOT, "| diff | %,d rows in %.1f s: %,.0f rows/s, %d mismatches | chunked CRC on s1 (50k-row ranges):"
                        + " %.2f s, %,.0f rows/s | %.2fx | >= 0.5x |%n", diffRows, diffSeconds, diffRate(), mismatches, crc.seconds(),
                crc.rowsPerSecond(), diffRate() / crc.rowsPerSecond());
        for (int i = 0; i < pausesMs.size(); i++) {
            out.printf(Locale.ROOT, "| cutover pause, proxy-%d (p100 of its probe, %,d acknowledged writes) | %d ms | | | <= 500 ms |%n",
                    i, acknowledged.get(i), pausesMs.get(i));
        }
        out.printf(Locale.ROOT, "| writes held (checkpoints.cutover.writes_held_ms) | %s | | | |%n",
                writesHeldMs < 0 ? "not reported" : writesHeldMs + " ms");
        out.printf(Locale.ROOT, "| rows | %,d in sbtest1, %,d of them on s1 | | | |%n", rows, sourceRows);
        out.printf(Locale.ROOT, "| cutover requests | %d | | | |%n", cutoverAttempts);
        out.printf(Locale.ROOT, "| elapsed | %.0f s | | | |%n", elapsedSeconds);
    }

    /**
     * What is wrong with the probes' rows after the cutover: {@code rowsByOwner} holds the probe ids found on each
     * owner's primary (by its key range), {@code acknowledged} the ids whose INSERT was acknowledged. Every acknowledged
     * id must be on the owner of its key, once over all owners; no owner may hold a key outside its range.
     */
    static List<String> probeProblems(Map<String, List<Long>> rowsByOwner, List<Long> acknowledged) {
        List<String> problems = new ArrayList<>();
        Map<Long, String> found = new HashMap<>();
        for (Map.Entry<String, List<Long>> owner : rowsByOwner.entrySet()) {
            KeyRange range = KeyRange.parse(owner.getKey());
            for (long id : owner.getValue()) {
                if (!range.contains(WriteProbe.keyspaceId(id))) {
                    problems.add("id " + id + " is on the owner of " + owner.getKey() + ", which does not own its key");
                }
                String before = found.put(id, owner.getKey());
                if (before != null) {
                    problems.add("id " + id + " is on the owners of both " + before + " and " + owner.getKey());
                }
            }
        }
        for (long id : acknowledged) {
            if (!found.containsKey(id)) {
                problems.add("acknowledged id " + id + " is on no shard");
            }
        }
        return problems;
    }
}
