package io.shardgate.proxy.sharding.xa;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An in-memory decision log that writes {@code log: ...} to the shared event list; its next
 * {@code decide} calls can be made to fail, before or after recording.
 */
final class RecordingDecisionLog implements XaDecisionLog {
    private final List<String> events;
    private final Map<String, XaDecision> decisions = new HashMap<>();
    private final Deque<Failure> failures = new ArrayDeque<>();

    enum Failure { BEFORE_WRITE, AFTER_WRITE }

    RecordingDecisionLog(List<String> events) {
        this.events = events;
    }

    RecordingDecisionLog failNextDecide(Failure how) {
        failures.add(how);
        return this;
    }

    RecordingDecisionLog recorded(String gtrid, XaDecision decision) {
        decisions.put(gtrid, decision);
        return this;
    }

    XaDecision decisionOf(String gtrid) {
        return decisions.get(gtrid);
    }

    @Override
    public XaDecision decide(String gtrid, XaDecision proposed) {
        events.add("log: decide " + proposed);
        Failure failure = failures.poll();
        if (failure == Failure.BEFORE_WRITE) {
            throw new XaException("decision shard unreachable", null);
        }
        XaDecision holds = decisions.computeIfAbsent(gtrid, g -> proposed);
        if (failure == Failure.AFTER_WRITE) {
            throw new XaException("connection lost after the write", null);
        }
        return holds;
    }

    @Override
    public void forget(String gtrid) {
        events.add("log: forget");
        decisions.remove(gtrid);
    }

    @Override
    public Set<String> decidedBefore(Duration age) {
        return Set.copyOf(decisions.keySet());
    }

    @Override
    public int forgetAll(Collection<String> gtrids) {
        int before = decisions.size();
        decisions.keySet().removeAll(gtrids);
        return before - decisions.size();
    }
}
