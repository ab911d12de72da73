package io.shardgate.router.plan;

import io.shardgate.errors.ErrorCode;
import io.shardgate.router.value.SqlValue;

import java.math.BigInteger;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A value a plan needs that may only be known when it runs: a literal of the statement, or a
 * parameter of a prepared statement bound at each execution.
 */
public sealed interface ValueSource {

    /** The value, given the execution's parameters (null is not one: SQL NULL is {@link SqlValue#NULL}). */
    SqlValue value(List<SqlValue> parameters);

    /** How EXPLAIN shows it: the literal, or {@code ?N} (zero-based) for a parameter. */
    String describe();

    /** A literal of the statement ({@link SqlValue#NULL} for NULL). */
    record Literal(SqlValue value) implements ValueSource {
        public Literal {
            requireNonNull(value, "value is null");
        }

        /** A literal of this Java value (see {@link SqlValue#of}). */
        public static Literal of(Object value) {
            return new Literal(SqlValue.of(value));
        }

        @Override
        public SqlValue value(List<SqlValue> parameters) {
            return value;
        }

        @Override
        public String describe() {
            return switch (value.type()) {
                case NULL -> "NULL";
                case TEXT -> "'" + value.text().replace("'", "''") + "'";
                default -> value.toString();
            };
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
        public SqlValue value(List<SqlValue> parameters) {
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
        public SqlValue value(List<SqlValue> parameters) {
            return SqlValue.of(integer(left.value(parameters)).add(integer(right.value(parameters))));
        }

        @Override
        public String describe() {
            return left.describe() + "+" + right.describe();
        }
    }

    /** A LIMIT value as an integer: MySQL accepts only non-negative integers there. */
    static BigInteger integer(SqlValue value) {
        switch (value.type()) {
            case INTEGER, BIG_INTEGER, DECIMAL -> {
                return new BigInteger(value.toJava().toString());
            }
            case TEXT -> {
                if (value.text().strip().matches("\\d+")) {
                    return new BigInteger(value.text().strip());
                }
            }
            default -> {
            }
        }
        throw ErrorCode.UNSUPPORTED.exception("LIMIT " + value + ": LIMIT takes non-negative integers");
    }
}
