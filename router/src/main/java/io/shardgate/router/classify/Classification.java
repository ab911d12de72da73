package io.shardgate.router.classify;

import static java.util.Objects.requireNonNull;

/**
 * The result of {@link StatementClassifier#classify(CharSequence)}.
 *
 * @param statementClass what the statement does; for a multi-statement, the most demanding part
 * @param transactionKind the sub-kind when {@code statementClass} is {@link StatementClass#TRANSACTION}, else {@link TransactionKind#NONE}
 * @param temporaryTable whether a temporary table is created or dropped (by any part of a multi-statement)
 * @param multiStatement whether the input holds more than one non-empty statement
 * @param hints the Shardgate hints found in comments anywhere in the input
 * @param effects what the statement does to the connection's session besides system variables
 */
public record Classification(
        StatementClass statementClass,
        TransactionKind transactionKind,
        TemporaryTable temporaryTable,
        boolean multiStatement,
        Hints hints,
        SessionEffects effects) {

    public Classification {
        requireNonNull(statementClass, "statementClass is null");
        requireNonNull(transactionKind, "transactionKind is null");
        requireNonNull(temporaryTable, "temporaryTable is null");
        requireNonNull(hints, "hints is null");
        requireNonNull(effects, "effects is null");
        if ((statementClass == StatementClass.TRANSACTION) != (transactionKind != TransactionKind.NONE)) {
            throw new IllegalArgumentException("transactionKind " + transactionKind + " does not fit class " + statementClass);
        }
    }

    /**
     * A compact summary for golden files: the transaction kind, then {@code TEMP_CREATE}/{@code TEMP_DROP},
     * {@code MULTI}, {@code HINT_PRIMARY}, {@code MAX_LAG=N}, comma separated; {@code -} when there is none.
     */
    public String details() {
        StringBuilder out = new StringBuilder();
        if (transactionKind != TransactionKind.NONE) {
            out.append(transactionKind.name());
        }
        if (temporaryTable != TemporaryTable.NONE) {
            append(out, "TEMP_" + temporaryTable.name());
        }
        if (multiStatement) {
            append(out, "MULTI");
        }
        if (hints.forcePrimary()) {
            append(out, "HINT_PRIMARY");
        }
        if (hints.maxLagMs().isPresent()) {
            append(out, "MAX_LAG=" + hints.maxLagMs().getAsLong());
        }
        return out.isEmpty() ? "-" : out.toString();
    }

    private static void append(StringBuilder out, String item) {
        if (!out.isEmpty()) {
            out.append(',');
        }
        out.append(item);
    }
}
