package io.shardgate.replication.copy;

import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.stream.Change;
import io.shardgate.replication.stream.RowChange;
import io.shardgate.replication.stream.Transaction;
import io.shardgate.replication.stream.apply.AppliedPositions;
import io.shardgate.replication.stream.apply.ApplyTarget;
import io.shardgate.replication.stream.apply.TargetSession;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A target that applies each row change as {@link CatchUpScope#map} turns it: an update whose row
 * leaves the target's scope becomes a delete, one whose row enters it an insert.
 */
final class ScopedApplyTarget implements ApplyTarget {
    private final ApplyTarget delegate;
    private final CatchUpScope scope;

    ScopedApplyTarget(ApplyTarget delegate, CatchUpScope scope) {
        this.delegate = requireNonNull(delegate, "delegate is null");
        this.scope = requireNonNull(scope, "scope is null");
    }

    @Override
    public AppliedPositions load() {
        return delegate.load();
    }

    // The schema history is the target's, whatever the scope: a stream that spans DDL reads rows with it.
    @Override
    public java.util.List<io.shardgate.replication.stream.history.TableVersion> loadSchemaHistory() {
        return delegate.loadSchemaHistory();
    }

    @Override
    public void saveSchemaHistory(java.util.List<io.shardgate.replication.stream.history.TableVersion> versions) {
        delegate.saveSchemaHistory(versions);
    }

    @Override
    public java.util.List<io.shardgate.replication.stream.history.TableShape> presentShapes(
            io.shardgate.replication.stream.TableFilter filter) {
        return delegate.presentShapes(filter);
    }

    @Override
    public void saveFloor(MariaDbGtidPosition floor) {
        delegate.saveFloor(floor);
    }

    @Override
    public TargetSession open() {
        TargetSession session = delegate.open();
        return new TargetSession() {
            @Override
            public void apply(List<Transaction> batch) {
                List<Transaction> mapped = new ArrayList<>(batch.size());
                for (Transaction transaction : batch) {
                    mapped.add(map(transaction));
                }
                session.apply(mapped);
            }

            @Override
            public void saveWatermark(MariaDbGtidPosition watermark) {
                session.saveWatermark(watermark);
            }

            @Override
            public void close() {
                session.close();
            }
        };
    }

    private Transaction map(Transaction transaction) {
        List<Change> changes = new ArrayList<>(transaction.changes().size());
        boolean changed = false;
        for (Change change : transaction.changes()) {
            if (change instanceof RowChange row) {
                RowChange mapped = scope.map(row);
                changed |= mapped != row;
                if (mapped != null) {
                    changes.add(mapped);
                }
            } else {
                changes.add(change);
            }
        }
        return changed ? transaction.withChanges(changes) : transaction;
    }
}
