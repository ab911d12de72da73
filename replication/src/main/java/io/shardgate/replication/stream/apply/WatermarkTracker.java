package io.shardgate.replication.stream.apply;

import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;

import static java.util.Objects.requireNonNull;

/**
 * The highest source position below which every transaction is done, while transactions finish
 * out of order on several workers.
 *
 * <p>Example: transactions 0-1-5, 0-1-6, 0-1-7 are registered; 0-1-7 and 0-1-5 finish. The
 * watermark is 0-1-5: 0-1-6 is still running, so a restart must read it again (0-1-7 is then
 * skipped by its schema's stored position).
 */
public final class WatermarkTracker {
    /** Registered, not yet passed transactions by ticket: slot {@code ticket & mask}; a power of two long. */
    private MariaDbGtid[] gtids = new MariaDbGtid[1024];
    private boolean[] done = new boolean[1024];
    private MariaDbGtidPosition watermark;
    /** The oldest ticket not yet passed by the watermark. */
    private long head;
    private long nextTicket;
    private final java.util.Map<MariaDbGtid, Long> xaTickets = new java.util.HashMap<>();
    /** Registered and not done, XA PREPAREs included. */
    private int undone;

    public WatermarkTracker(MariaDbGtidPosition start) {
        this.watermark = requireNonNull(start, "start is null");
    }

    /** Called in source order; returns the ticket to pass to {@link #done}. */
    public synchronized long register(MariaDbGtid gtid) {
        requireNonNull(gtid, "gtid is null");
        if (nextTicket - head == gtids.length) {
            grow();
        }
        long ticket = nextTicket++;
        gtids[slot(ticket)] = gtid;
        undone++;
        return ticket;
    }

    /**
     * Registers an XA PREPARE (in source order, like {@link #register}): its ticket stays open, so the watermark stays
     * before it, until {@link #endXa} is given the transaction that ends it.
     */
    public synchronized void prepareXa(MariaDbGtid gtid) {
        xaTickets.put(gtid, register(gtid));
    }

    /** The ticket of the XA PREPARE at {@code prepared}, to be done with the transaction that ends it; null if unknown. */
    public synchronized Long endXa(MariaDbGtid prepared) {
        return prepared == null ? null : xaTickets.remove(prepared);
    }

    /** {@link #done} of {@code ticket}, and of the ticket of the XA PREPARE it ends ({@link #endXa}), if any. */
    public synchronized void done(long ticket, Long xaPrepare) {
        done(ticket);
        if (xaPrepare != null) {
            done(xaPrepare);
        }
    }

    public synchronized void done(long ticket) {
        if (ticket < head || ticket >= nextTicket) {
            throw new IllegalArgumentException("ticket " + ticket + " is not pending");
        }
        if (!done[slot(ticket)]) {
            undone--;
        }
        done[slot(ticket)] = true;
        while (head < nextTicket && done[slot(head)]) {
            int slot = slot(head);
            watermark = watermark.with(gtids[slot]);
            gtids[slot] = null;
            done[slot] = false;
            head++;
        }
    }

    public synchronized MariaDbGtidPosition watermark() {
        return watermark;
    }

    /** Registered transactions the watermark has not passed yet. */
    public synchronized int pending() {
        return (int) (nextTicket - head);
    }

    /** Registered transactions not done yet, not counting XA PREPAREs waiting for their transaction's end. */
    public synchronized int unapplied() {
        return undone - xaTickets.size();
    }

    private int slot(long ticket) {
        return (int) (ticket & (gtids.length - 1));
    }

    private void grow() {
        MariaDbGtid[] oldGtids = gtids;
        boolean[] oldDone = done;
        int oldMask = oldGtids.length - 1;
        gtids = new MariaDbGtid[oldGtids.length * 2];
        done = new boolean[oldGtids.length * 2];
        for (long ticket = head; ticket < nextTicket; ticket++) {
            gtids[slot(ticket)] = oldGtids[(int) (ticket & oldMask)];
            done[slot(ticket)] = oldDone[(int) (ticket & oldMask)];
        }
    }
}
