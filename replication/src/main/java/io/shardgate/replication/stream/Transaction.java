package io.shardgate.replication.stream;

import io.shardgate.replication.gtid.MariaDbGtid;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * One committed source transaction: the unit of the change stream. It is handed on only after
 * its commit event (XID or COMMIT) was read, so it is always complete.
 *
 * @param gtid           the source GTID
 * @param commitSeconds  the commit event's timestamp (epoch seconds), for lag
 * @param changes        row changes and DDL in binlog order; empty for a transaction the stream
 *                       does not carry (a statement it skips, a filtered table)
 */
public record Transaction(MariaDbGtid gtid, long commitSeconds, List<Change> changes) {
    public Transaction {
        requireNonNull(gtid, "gtid is null");
        changes = List.copyOf(requireNonNull(changes, "changes is null"));
    }

    /** Every schema a change of this transaction touches, sorted. */
    public Set<String> schemas() {
        Set<String> schemas = new TreeSet<>();
        for (Change change : changes) {
            if (change instanceof DdlChange ddl) {
                schemas.addAll(ddl.schemas());
                if (ddl.schemas().isEmpty() && !ddl.defaultSchema().isEmpty()) {
                    schemas.add(ddl.defaultSchema());
                }
            } else {
                schemas.add(change.schema());
            }
        }
        return schemas;
    }

    public boolean hasDdl() {
        return changes.stream().anyMatch(DdlChange.class::isInstance);
    }

    /** True when a DDL of this transaction must hold back every schema. */
    public boolean isGlobalBarrier() {
        return changes.stream().anyMatch(change -> change instanceof DdlChange ddl && ddl.global());
    }

    public int rowCount() {
        return (int) changes.stream().filter(RowChange.class::isInstance).count();
    }

    /** This transaction with only {@code kept} changes (after filtering). */
    public Transaction withChanges(List<Change> kept) {
        return new Transaction(gtid, commitSeconds, kept);
    }

    @Override
    public String toString() {
        return "Transaction[" + gtid + ", " + changes.size() + " changes, schemas " + schemas() + "]";
    }
}
