package io.shardgate.replication.stream;

import io.shardgate.replication.gtid.MariaDbGtid;

import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * One committed source transaction: the unit of the change stream. It is handed on only after
 * its commit event (XID or COMMIT) was read, so it is always complete. Immutable; what the
 * applier asks of it on every transaction (its schemas, row count, DDL) is worked out once.
 *
 * <p>An XA transaction is two binlog groups: XA PREPARE logs its rows under one GTID, and XA COMMIT (or ROLLBACK)
 * logs under a later one. The first is handed on as a {@linkplain #xaPrepared() prepared} marker without changes: it
 * holds the stream's restart point before it until the transaction ends. The second carries the prepared rows (none
 * for a rollback), is applied at its own GTID, in commit order, and {@linkplain #completesXa() names} the first.
 */
public final class Transaction {
    private final MariaDbGtid gtid;
    private final long commitSeconds;
    private final List<Change> changes;
    private final Set<String> schemas;
    private final int rowCount;
    private final boolean hasDdl;
    private final boolean globalBarrier;
    private final boolean xaPrepared;
    private final MariaDbGtid completesXa;

    /**
     * @param gtid           the source GTID
     * @param commitSeconds  the commit event's timestamp (epoch seconds), for lag
     * @param changes        row changes and DDL in binlog order; empty for a transaction the stream
     *                       does not carry (a statement it skips, a filtered table)
     */
    public Transaction(MariaDbGtid gtid, long commitSeconds, List<Change> changes) {
        this(gtid, commitSeconds, changes, false, null);
    }

    private Transaction(MariaDbGtid gtid, long commitSeconds, List<Change> changes, boolean xaPrepared, MariaDbGtid completesXa) {
        this.xaPrepared = xaPrepared;
        this.completesXa = completesXa;
        this.gtid = requireNonNull(gtid, "gtid is null");
        this.commitSeconds = commitSeconds;
        this.changes = List.copyOf(requireNonNull(changes, "changes is null"));
        Set<String> touched = new TreeSet<>();
        int rows = 0;
        boolean ddl = false;
        boolean global = false;
        for (Change change : this.changes) {
            if (change instanceof DdlChange ddlChange) {
                ddl = true;
                global |= ddlChange.global();
                touched.addAll(ddlChange.schemas());
                if (ddlChange.schemas().isEmpty() && !ddlChange.defaultSchema().isEmpty()) {
                    touched.add(ddlChange.defaultSchema());
                }
            } else {
                rows++;
                touched.add(change.schema());
            }
        }
        this.schemas = Collections.unmodifiableSet(touched);
        this.rowCount = rows;
        this.hasDdl = ddl;
        this.globalBarrier = global;
    }

    public MariaDbGtid gtid() {
        return gtid;
    }

    public long commitSeconds() {
        return commitSeconds;
    }

    public List<Change> changes() {
        return changes;
    }

    /** Every schema a change of this transaction touches, sorted. */
    public Set<String> schemas() {
        return schemas;
    }

    public boolean hasDdl() {
        return hasDdl;
    }

    /** True when a DDL of this transaction must hold back every schema. */
    public boolean isGlobalBarrier() {
        return globalBarrier;
    }

    public int rowCount() {
        return rowCount;
    }

    /** This transaction with only {@code kept} changes (after filtering). */
    public Transaction withChanges(List<Change> kept) {
        return new Transaction(gtid, commitSeconds, kept, xaPrepared, completesXa);
    }

    /** The XA PREPARE group {@code gtid}: nothing to apply yet; the stream must not restart past it until it ends. */
    public static Transaction xaPrepare(MariaDbGtid gtid, long commitSeconds) {
        return new Transaction(gtid, commitSeconds, List.of(), true, null);
    }

    /** The XA COMMIT (or ROLLBACK: no {@code changes}) {@code gtid} of the transaction prepared at {@code prepared}. */
    public static Transaction xaCompletion(MariaDbGtid gtid, long commitSeconds, List<Change> changes, MariaDbGtid prepared) {
        return new Transaction(gtid, commitSeconds, changes, false, requireNonNull(prepared, "prepared is null"));
    }

    /** An XA PREPARE group: its rows come with the transaction's end. */
    public boolean xaPrepared() {
        return xaPrepared;
    }

    /** The GTID of the XA PREPARE this transaction ends; null for any other transaction. */
    public MariaDbGtid completesXa() {
        return completesXa;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Transaction other && gtid.equals(other.gtid) && commitSeconds == other.commitSeconds
                && changes.equals(other.changes) && xaPrepared == other.xaPrepared && Objects.equals(completesXa, other.completesXa);
    }

    @Override
    public int hashCode() {
        return Objects.hash(gtid, commitSeconds, changes, xaPrepared, completesXa);
    }

    @Override
    public String toString() {
        return "Transaction[" + gtid + ", " + changes.size() + " changes, schemas " + schemas + "]";
    }
}
