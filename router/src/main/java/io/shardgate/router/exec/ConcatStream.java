package io.shardgate.router.exec;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/** The rows of several streams one stream after another: an unordered scatter. Completions add up. */
public final class ConcatStream implements RowStream {
    private final List<RowStream> inputs;
    private int current;
    private Completion completion = Completion.NONE;

    public ConcatStream(List<RowStream> inputs) {
        this.inputs = new ArrayList<>(requireNonNull(inputs, "inputs is null"));
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
        while (current < inputs.size()) {
            Row row = inputs.get(current).next();
            if (row != null) {
                return row;
            }
            completion = completion.plus(inputs.get(current).completion());
            current++;
        }
        return null;
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
