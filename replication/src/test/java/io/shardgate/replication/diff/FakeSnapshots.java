package io.shardgate.replication.diff;

import io.shardgate.storage.checksum.ChecksumResult;
import io.shardgate.storage.checksum.PkRange;
import io.shardgate.storage.checksum.RowChecksum;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Consumer;

/** Opens "snapshots" of fake servers, counting how many were opened and how many are open now. */
final class FakeSnapshots implements SnapshotSource {
    private final FakeServer source;
    private final List<FakeServer> targets;
    private final KeyOrder order;
    int opened;
    int open;
    /** Connections per target in each snapshot; the range checksums each lane answered. */
    int lanes = 1;
    final AtomicIntegerArray laneChecksums = new AtomicIntegerArray(8);

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
            public List<List<ServerReader>> targetLanes() {
                List<List<ServerReader>> all = new ArrayList<>();
                for (FakeServer target : targets) {
                    List<ServerReader> each = new ArrayList<>();
                    for (int lane = 0; lane < lanes; lane++) {
                        each.add(new Lane(target, lane));
                    }
                    all.add(each);
                }
                return all;
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

    /** One more connection to a fake target, in the same snapshot: the same rows, its checksums counted by lane. */
    private final class Lane implements ServerReader {
        private final FakeServer server;
        private final int lane;

        Lane(FakeServer server, int lane) {
            this.server = server;
            this.lane = lane;
        }

        @Override
        public ChecksumResult checksum(PkRange range) throws SQLException {
            laneChecksums.incrementAndGet(lane);
            return server.checksum(range);
        }

        @Override
        public Optional<List<Object>> keyAt(PkRange range, long offset) throws SQLException {
            return server.keyAt(range, offset);
        }

        @Override
        public Optional<List<Object>> lastKey() throws SQLException {
            return server.lastKey();
        }

        @Override
        public List<RowChecksum> rows(PkRange range) throws SQLException {
            return server.rows(range);
        }

        @Override
        public void keyColumns(PkRange range, List<String> columns, Consumer<List<Object>> row) throws SQLException {
            server.keyColumns(range, columns, row);
        }
    }
}
