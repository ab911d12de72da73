package io.shardgate.replication.diff;

import java.util.List;

/** Opens "snapshots" of fake servers, counting how many were opened and how many are open now. */
final class FakeSnapshots implements SnapshotSource {
    private final FakeServer source;
    private final List<FakeServer> targets;
    private final KeyOrder order;
    int opened;
    int open;

    FakeSnapshots(KeyOrder order, FakeServer source, List<FakeServer> targets) {
        this.order = order;
        this.source = source;
        this.targets = targets;
    }

    @Override
    public Snapshot open() {
        opened++;
        open++;
        return new Snapshot() {
            @Override
            public ServerReader source() {
                return source;
            }

            @Override
            public List<ServerReader> targets() {
                return List.copyOf(targets);
            }

            @Override
            public KeyOrder keyOrder() {
                return order;
            }

            @Override
            public long estimatedRows() {
                return source.size();
            }

            @Override
            public void close() {
                open--;
            }
        };
    }
}
