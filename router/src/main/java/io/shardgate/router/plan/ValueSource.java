package io.shardgate.router.plan;

import io.shardgate.errors.ErrorCode;

import java.math.BigInteger;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A value a plan needs that may only be known when it runs: a literal of the statement, or a
 * parameter of a prepared statement bound at each execution.
 */
public sealed interface ValueSource {

    /** The value, given the execution's parameters. */
    Object value(List<Object> parameters);

    /** How EXPLAIN shows it: the literal, or {@code ?N} (zero-based) for a parameter. */
    String describe();

    /** A literal of the statement, as Java sees it (null for NULL). */
    record Literal(Object value) implements ValueSource {
        @Override
        public Object value(List<Object> parameters) {
            return value;
        }

        @Override
        public String describe() {
            return value == null ? "NULL" : value instanceof String s ? "'" + s.replace("'", "''") + "'" : value.toString();
        }
    }

    /** Parameter {@code index} (zero-based) of a prepared statement. */
    record Parameter(int index) implements ValueSource {
        public Parameter {
            if (index < 0) {
                throw new IllegalArgumentException("parameter index " + index + " is negative");
            }
        }

        @Override
        public Object value(List<Object> parameters) {
            if (index >= parameters.size()) {
                throw ErrorCode.WRONG_PARAMETER_COUNT.exception(index + 1, parameters.size());
            }
            return parameters.get(index);
        }

        @Override
        public String describe() {
            return "?" + index;
        }
    }

    /** The sum of two integer values: LIMIT offset+count sent to each shard. */
    record Sum(ValueSource left, ValueSource right) implements ValueSource {
        public Sum {
            requireNonNull(left, "left is null");
            requireNonNull(right, "right is null");
        }

        @Override
        public Object value(List<Object> parameters) {
            return integer(left.value(parameters)).add(integer(right.value(parameters)));
        }

        @Override
        public String describe() {
            return left.describe() + "+" + right.describe();
        }
    }

    /** A LIMIT value as an integer: MySQL accepts only non-negative integers there. */
    static BigInteger integer(Object value) {
        if (value instanceof Number number && !(value instanceof Double) && !(value instanceof Float)) {
            return new BigInteger(number.toString());
        }
        if (value instanceof String s && s.strip().matches("\\d+")) {
            return new BigInteger(s.strip());
        }
        throw ErrorCode.UNSUPPORTED.exception("LIMIT " + value + ": LIMIT takes non-negative integers");
    }
}
