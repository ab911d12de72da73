package io.shardgate.proxy.jobs;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * What an operator asks of a running job ({@code POST /api/v1/jobs/{id}/cutover|cancel|reverse|complete}). The API records the
 * request in the job; the job's executor acts on it. Each is valid only in some phases.
 */
public enum JobAction {
    /** Switch traffic to the targets: once the copy is done and the diff clean ({@code ready}). */
    CUTOVER(EnumSet.of(JobPhase.READY)),
    /** Stop the job and leave the source serving: any phase before the switch. */
    CANCEL(EnumSet.of(JobPhase.CREATED, JobPhase.COPYING, JobPhase.STREAMING, JobPhase.DIFFING, JobPhase.READY,
            JobPhase.CUTTING_OVER)),
    /** Move traffic back to the source with the reverse streams: after the switch. */
    REVERSE(EnumSet.of(JobPhase.SWITCHED)),
    /** End the job after the switch: the reverse streams stop, and traffic stays on the targets for good. */
    COMPLETE(EnumSet.of(JobPhase.SWITCHED));

    private final Set<JobPhase> validIn;

    JobAction(Set<JobPhase> validIn) {
        this.validIn = validIn;
    }

    /** The phases in which the action may be requested. */
    public Set<JobPhase> validIn() {
        return EnumSet.copyOf(validIn);
    }

    public boolean validIn(JobPhase phase) {
        return validIn.contains(phase);
    }

    @JsonValue
    public String json() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static JobAction parse(String text) {
        for (JobAction action : values()) {
            if (action.json().equals(text)) {
                return action;
            }
        }
        throw new IllegalArgumentException("unknown job action '" + text + "' (expected cutover, cancel, reverse or complete)");
    }
}
