package io.shardgate.proxy.jobs;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/**
 * Where a job is. A reshard or move goes {@code created → copying → streaming → diffing → ready → cutting_over →
 * switched → done}; in {@code switched} the reverse streams run until the operator completes the job ({@code done}) or
 * reverses it ({@code reversing → reversed}: the source owns its keys again); {@code cancelling → cancelled} from any
 * phase before the switch, {@code failed} from anywhere. The executor of the job's kind moves it between phases; the runner only
 * sets {@code failed} (the executor threw) and {@code cancelled} (the executor stopped on a cancel).
 */
public enum JobPhase {
    CREATED,
    COPYING,
    STREAMING,
    DIFFING,
    READY,
    CUTTING_OVER,
    SWITCHED,
    REVERSING,
    REVERSED,
    CANCELLING,
    CANCELLED,
    FAILED,
    DONE;

    /** Nothing runs any more: no runner takes the job. */
    public boolean terminal() {
        return this == REVERSED || this == CANCELLED || this == FAILED || this == DONE;
    }

    /** The name in the job document, the API and the metrics: {@code cutting_over}. */
    @JsonValue
    public String json() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static JobPhase parse(String text) {
        for (JobPhase phase : values()) {
            if (phase.json().equals(text)) {
                return phase;
            }
        }
        throw new IllegalArgumentException("unknown job phase '" + text + "'");
    }
}
