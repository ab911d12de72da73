package io.shardgate.storage.capability;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * An engine's online-DDL table: for each {@link AlterOperation}, the least blocking
 * ALGORITHM/LOCK it allows, and how a statement with several operations combines them.
 *
 * <p>Combining, verified on MariaDB 10.11 (see docs/engines.md):
 * <ul>
 *   <li>the lock is the strongest of the operations' locks;</li>
 *   <li>the algorithm is the operations' common algorithm when they share one; when they differ
 *       it is the most expensive of them, and at least {@code INPLACE}: InnoDB runs
 *       {@code ADD COLUMN} (INSTANT) with {@code ADD INDEX} (NOCOPY) only as {@code INPLACE}.
 *       Asking for {@code INPLACE} costs nothing, since the server still picks a cheaper way
 *       when it has one;</li>
 *   <li>a rename alone is a metadata change ({@code INSTANT, LOCK=EXCLUSIVE} for a moment);
 *       combined with other operations it takes {@link #renameWithOthers()}: nothing on InnoDB
 *       (where it adds no constraint at all), {@code COPY} on MyRocks;</li>
 *   <li>replacing the primary key ({@code DROP PRIMARY KEY, ADD PRIMARY KEY (…)}) costs what adding
 *       one costs: InnoDB rebuilds in place with {@code LOCK=NONE}, though dropping it alone copies;</li>
 *   <li>{@code COPY} always needs at least {@code LOCK=SHARED}.</li>
 * </ul>
 *
 * @param rules            one rule per operation; operations without one are {@link OnlineDdlRule#unknown()}
 * @param renameWithOthers what {@link AlterOperation#RENAME_TABLE} costs next to other operations;
 *                         empty when it costs nothing there
 */
public record OnlineDdl(Map<AlterOperation, OnlineDdlRule> rules, java.util.Optional<AlterChoice> renameWithOthers) {
    public OnlineDdl {
        requireNonNull(rules, "rules is null");
        requireNonNull(renameWithOthers, "renameWithOthers is null");
        Map<AlterOperation, OnlineDdlRule> copy = new EnumMap<>(AlterOperation.class);
        copy.putAll(rules);
        rules = java.util.Collections.unmodifiableMap(copy);
    }

    /** The rule for one operation on its own. */
    public OnlineDdlRule rule(AlterOperation operation) {
        return rules.getOrDefault(requireNonNull(operation, "operation is null"), OnlineDdlRule.unknown());
    }

    /** The least blocking choice for a statement making all of {@code operations}; empty set is an error. */
    public OnlineDdlRule leastBlocking(Set<AlterOperation> operations) {
        requireNonNull(operations, "operations is null");
        if (operations.isEmpty()) {
            throw new IllegalArgumentException("no operations");
        }
        if (operations.contains(AlterOperation.DROP_PRIMARY_KEY) && operations.contains(AlterOperation.ADD_PRIMARY_KEY)) {
            Set<AlterOperation> replaced = java.util.EnumSet.copyOf(operations);
            replaced.remove(AlterOperation.DROP_PRIMARY_KEY);
            return leastBlocking(replaced);
        }
        if (operations.size() > 1 && operations.contains(AlterOperation.RENAME_TABLE) && renameWithOthers.isEmpty()) {
            Set<AlterOperation> others = java.util.EnumSet.copyOf(operations);
            others.remove(AlterOperation.RENAME_TABLE);
            return leastBlocking(others);
        }
        if (operations.size() == 1) {
            return rule(operations.iterator().next());
        }
        AlterAlgorithm maxAlgorithm = AlterAlgorithm.INSTANT;
        AlterLock lock = AlterLock.NONE;
        OnlineDdlRule.Certainty certainty = OnlineDdlRule.Certainty.EXACT;
        Set<AlterAlgorithm> algorithms = java.util.EnumSet.noneOf(AlterAlgorithm.class);
        for (AlterOperation operation : operations) {
            OnlineDdlRule rule = operation == AlterOperation.RENAME_TABLE
                    ? new OnlineDdlRule(renameWithOthers.orElseThrow(), OnlineDdlRule.Certainty.EXACT)
                    : rule(operation);
            algorithms.add(rule.best().algorithm());
            maxAlgorithm = AlterAlgorithm.max(maxAlgorithm, rule.best().algorithm());
            lock = AlterLock.max(lock, rule.best().lock());
            certainty = OnlineDdlRule.Certainty.weaker(certainty, rule.certainty());
        }
        AlterAlgorithm algorithm = algorithms.size() == 1 ? maxAlgorithm
                : AlterAlgorithm.max(maxAlgorithm, AlterAlgorithm.INPLACE);
        if (algorithm == AlterAlgorithm.COPY) {
            lock = AlterLock.max(lock, AlterLock.SHARED);
        }
        return new OnlineDdlRule(AlterChoice.of(algorithm, lock), certainty);
    }

    /** {@code ADD_INDEX -> "NOCOPY/NONE"} and so on, for the capabilities document. */
    public Map<String, String> describe() {
        Map<String, String> table = new LinkedHashMap<>();
        for (AlterOperation operation : AlterOperation.values()) {
            OnlineDdlRule rule = rule(operation);
            String text = rule.best().algorithm() + "/" + rule.best().lock();
            table.put(operation.name(), switch (rule.certainty()) {
                case EXACT -> text;
                case LOCK_ONLY -> text + " at best (LOCK enforced, algorithm by the server)";
                case UNKNOWN -> "unknown (treated as blocking)";
            });
        }
        return table;
    }
}
