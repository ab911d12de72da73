package io.shardgate.replication.stream.apply;

import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.util.ArrayDeque;
import java.util.Deque;

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
    private final Deque<Entry> pending = new ArrayDeque<>();
    private MariaDbGtidPosition watermark;
    private long nextTicket;

    public WatermarkTracker(MariaDbGtidPosition start) {
        this.watermark = requireNonNull(start, "start is null");
    }

    /** Called in source order; returns the ticket to pass to {@link #done}. */
    public synchronized long register(MariaDbGtid gtid) {
        requireNonNull(gtid, "gtid is null");
        long ticket = nextTicket++;
        pending.addLast(new Entry(ticket, gtid));
        return ticket;
    }

    public synchronized void done(long ticket) {
        for (Entry entry : pending) {
            if (entry.ticket == ticket) {
                entry.done = true;
                break;
            }
        }
        while (!pending.isEmpty() && pending.peekFirst().done) {
            watermark = watermark.with(pending.removeFirst().gtid);
        }
    }

    public synchronized MariaDbGtidPosition watermark() {
        return watermark;
    }

    /** Registered transactions not yet done. */
    public synchronized int pending() {
        return pending.size();
    }

    private static final class Entry {
        final long ticket;
        final MariaDbGtid gtid;
        boolean done;

        Entry(long ticket, MariaDbGtid gtid) {
            this.ticket = ticket;
            this.gtid = gtid;
        }
    }
}
