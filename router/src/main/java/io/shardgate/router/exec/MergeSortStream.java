package io.shardgate.router.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

import static java.util.Objects.requireNonNull;

/**
 * A k-way merge of streams each sorted by {@code keys}: holds one row per input, so memory does not
 * grow with the result. Ties go to the earlier input, which keeps the merge deterministic.
 */
public final class MergeSortStream implements RowStream {

    private record Head(Row row, int input) {
    }

    private final List<RowStream> inputs;
    private final List<SortKey> keys;
    private PriorityQueue<Head> heads;
    private Completion completion = Completion.NONE;

    public MergeSortStream(List<RowStream> inputs, List<SortKey> keys) {
        this.inputs = new ArrayList<>(requireNonNull(inputs, "inputs is null"));
        this.keys = List.copyOf(requireNonNull(keys, "keys is null"));
        if (this.inputs.isEmpty()) {
            throw new IllegalArgumentException("no inputs");
        }
    }

    @Override
    public List<ColumnMeta> columns() {
        return inputs.get(0).columns();
    }

    @Override
    public Row next() {
        if (heads == null) {
            RowComparator rows = RowComparator.of(keys, columns(), "ORDER BY");
            heads = new PriorityQueue<>(inputs.size(), (a, b) -> {
                int order = rows.compare(a.row(), b.row());
                return order != 0 ? order : Integer.compare(a.input(), b.input());
            });
            for (int i = 0; i < inputs.size(); i++) {
                advance(i);
            }
        }
        Head head = heads.poll();
        if (head == null) {
            return null;
        }
        advance(head.input());
        return head.row();
    }

    private void advance(int input) {
        Row row = inputs.get(input).next();
        if (row != null) {
            heads.add(new Head(row, input));
        }
        else {
            completion = completion.plus(inputs.get(input).completion());
        }
    }

    @Override
    public Completion completion() {
        return completion;
    }

    @Override
    public void close() {
        Streams.closeAll(inputs);
    }
}
