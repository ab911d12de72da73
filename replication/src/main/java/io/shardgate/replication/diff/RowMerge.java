package io.shardgate.replication.diff;

import io.shardgate.storage.checksum.RowChecksum;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * Merge-compares one range's rows, read in key order from the source and from every target: the rows
 * of one key (equal under {@link KeyOrder}) are grouped across the servers, and
 * <ul>
 *   <li>a source row no target has is {@link Mismatch.Kind#MISSING_ON_TARGET};</li>
 *   <li>a target row the source lacks is {@link Mismatch.Kind#EXTRA_ON_TARGET} on its shard;</li>
 *   <li>where both have it, the first target copy with the source's CRC is the match; if none has it,
 *       the first copy is {@link Mismatch.Kind#DIFFERENT}; every other copy is EXTRA_ON_TARGET.</li>
 * </ul>
 * Pure: the lists are already in each server's key order.
 */
final class RowMerge {
    private final KeyOrder order;
    private final List<String> shards;

    RowMerge(KeyOrder order, List<String> shards) {
        this.order = requireNonNull(order, "order is null");
        this.shards = List.copyOf(requireNonNull(shards, "shards is null"));
    }

    void compare(List<RowChecksum> source, List<List<RowChecksum>> targets, Consumer<Mismatch> out) {
        requireNonNull(source, "source is null");
        requireNonNull(out, "out is null");
        if (targets.size() != shards.size()) {
            throw new IllegalArgumentException(targets.size() + " target row lists for " + shards.size() + " targets");
        }
        int[] at = new int[targets.size()];
        int s = 0;
        while (true) {
            List<Object> least = s < source.size() ? source.get(s).key() : null;
            for (int t = 0; t < targets.size(); t++) {
                if (at[t] < targets.get(t).size()) {
                    List<Object> key = targets.get(t).get(at[t]).key();
                    if (least == null || order.compare(key, least) < 0) {
                        least = key;
                    }
                }
            }
            if (least == null) {
                return;
            }
            RowChecksum sourceRow = s < source.size() && order.compare(source.get(s).key(), least) == 0 ? source.get(s++) : null;
            List<Integer> holders = new ArrayList<>(1);
            List<RowChecksum> copies = new ArrayList<>(1);
            for (int t = 0; t < targets.size(); t++) {
                if (at[t] < targets.get(t).size() && order.compare(targets.get(t).get(at[t]).key(), least) == 0) {
                    holders.add(t);
                    copies.add(targets.get(t).get(at[t]++));
                }
            }
            judge(sourceRow, holders, copies, out);
        }
    }

    private void judge(RowChecksum sourceRow, List<Integer> holders, List<RowChecksum> copies, Consumer<Mismatch> out) {
        if (sourceRow == null) {
            for (int i = 0; i < copies.size(); i++) {
                out.accept(new Mismatch(Mismatch.Kind.EXTRA_ON_TARGET, copies.get(i).key(), shards.get(holders.get(i))));
            }
            return;
        }
        if (copies.isEmpty()) {
            out.accept(new Mismatch(Mismatch.Kind.MISSING_ON_TARGET, sourceRow.key(), ""));
            return;
        }
        int match = -1;
        for (int i = 0; i < copies.size() && match < 0; i++) {
            if (copies.get(i).crc() == sourceRow.crc()) {
                match = i;
            }
        }
        if (match < 0) {
            out.accept(new Mismatch(Mismatch.Kind.DIFFERENT, sourceRow.key(), shards.get(holders.get(0))));
            match = 0;
        }
        for (int i = 0; i < copies.size(); i++) {
            if (i != match) {
                out.accept(new Mismatch(Mismatch.Kind.EXTRA_ON_TARGET, copies.get(i).key(), shards.get(holders.get(i))));
            }
        }
    }
}
