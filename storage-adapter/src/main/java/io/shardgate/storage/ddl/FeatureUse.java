package io.shardgate.storage.ddl;

import static java.util.Objects.requireNonNull;

/** Where a statement uses a {@link Feature}: the clause, as SQL, for the refusal message. */
record FeatureUse(Feature feature, String clause) {
    FeatureUse {
        requireNonNull(feature, "feature is null");
        requireNonNull(clause, "clause is null");
    }
}
