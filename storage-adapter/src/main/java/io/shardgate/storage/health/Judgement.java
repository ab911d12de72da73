package io.shardgate.storage.health;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/** A health state and the reasons for it, in the order they were found. */
public record Judgement(HealthState state, List<String> reasons) {
    public Judgement {
        requireNonNull(state, "state is null");
        reasons = List.copyOf(requireNonNull(reasons, "reasons is null"));
    }

    public static Judgement ok() {
        return new Judgement(HealthState.OK, List.of());
    }

    /** This judgement with one more finding of state {@code found} for each of {@code more}. */
    public Judgement and(HealthState found, List<String> more) {
        requireNonNull(found, "found is null");
        if (more.isEmpty()) {
            return this;
        }
        List<String> all = new ArrayList<>(reasons);
        all.addAll(more);
        return new Judgement(HealthState.worst(state, found), all);
    }

    /** Collects findings; the state is the worst of them. */
    public static final class Builder {
        private HealthState state = HealthState.OK;
        private final List<String> reasons = new ArrayList<>();

        public Builder add(HealthState found, String reason) {
            state = HealthState.worst(state, requireNonNull(found, "found is null"));
            reasons.add(requireNonNull(reason, "reason is null"));
            return this;
        }

        public Judgement build() {
            return new Judgement(state, reasons);
        }
    }
}
