package io.shardgate.router.plan;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/** One value of an inserted row, as {@link InsertSplit} renders it. */
public sealed interface InsertValue {

    /**
     * A value as the client wrote it.
     *
     * @param text       its SQL text
     * @param parameters what the {@code ?} in {@code text} are bound to
     * @param value      the value when it is a literal or a single parameter; empty for an expression
     */
    record Written(String text, List<ValueSource> parameters, Optional<ValueSource> value) implements InsertValue {
        public Written {
            requireNonNull(text, "text is null");
            parameters = List.copyOf(parameters);
            requireNonNull(value, "value is null");
        }
    }

    /**
     * The column a global sequence feeds: the next sequence value, unless the client gave a value
     * other than NULL or 0 (as MySQL's AUTO_INCREMENT behaves).
     *
     * @param given the client's value, if the column was in the column list
     */
    record FromSequence(Optional<Written> given) implements InsertValue {
        public FromSequence {
            requireNonNull(given, "given is null");
        }
    }
}
