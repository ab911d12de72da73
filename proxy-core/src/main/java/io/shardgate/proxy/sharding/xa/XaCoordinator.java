package io.shardgate.proxy.sharding.xa;

import io.shardgate.proxy.sharding.FailureText;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * Two-phase commit of one transaction over the shards it wrote to, with presumed abort.
 *
 * <p>{@link #commit} with two or more branches: every branch {@code XA END} then
 * {@code XA PREPARE}, all at once. If any of them fails, every branch gets {@code XA ROLLBACK} and
 * the commit fails with that first error (a rollback that failed too is attached as suppressed;
 * such a connection should be closed, not reused). Otherwise COMMIT is written to the
 * {@link XaDecisionLog}: that write is the commit point, durable before any branch commits. Then
 * every branch gets {@code XA COMMIT}; a branch that fails to commit does not fail the client's
 * commit (recovery commits it from the log) but is logged and counted. Once every branch has
 * committed the decision is deleted, in the background, so the client does not wait for it;
 * a decision that stays behind is deleted by {@link XaRecovery}'s cleanup.
 *
 * <p>If the decision cannot be written, the coordinator tries to fence the transaction with ABORT
 * (recovery may have fenced it first, or the COMMIT may have been written after all: the fence
 * then reads it back and the transaction commits). With ABORT recorded every branch rolls back;
 * when neither write is possible the branches stay prepared for recovery ({@link XaException#branchesLeftPrepared()}).
 *
 * <p>One branch: {@code XA END} and {@code XA COMMIT ... ONE PHASE}, with no log.
 *
 * <p>The coordinator remembers the transactions between {@link #start} (or {@link #commit} /
 * {@link #rollback}) and the end of their commit or rollback, so that {@link XaRecovery} in this
 * process leaves them alone ({@link #inFlight}). Every started transaction must end with commit or
 * rollback, also after its connections broke.
 */
public final class XaCoordinator {
    private static final System.Logger LOG = System.getLogger(XaCoordinator.class.getName());

    private final XaDecisionLog log;
    private final Executor blocking;
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    private final AtomicLong commitFailuresAfterDecision = new AtomicLong();

    /**
     * @param log      where commit decisions go
     * @param blocking runs the decision log's (blocking) calls, never an event loop
     */
    public XaCoordinator(XaDecisionLog log, Executor blocking) {
        this.log = requireNonNull(log, "log is null");
        this.blocking = requireNonNull(blocking, "blocking is null");
    }

    /** Opens {@code branch}'s part of {@code gtrid}: {@code XA START}. */
    public CompletableFuture<Void> start(String gtrid, XaBranch branch) {
        requireNonNull(branch, "branch is null");
        inFlight.add(requireNonNull(gtrid, "gtrid is null"));
        return step(branch, XaStatements.start(new XaId(gtrid, branch.shard())));
    }

    /** True from {@link #start} until the transaction's commit or rollback completed. */
    public boolean inFlight(String gtrid) {
        return inFlight.contains(gtrid);
    }

    /** Branch commits that failed after the commit decision was logged (recovery finishes them). */
    public long commitFailuresAfterDecision() {
        return commitFailuresAfterDecision.get();
    }

    /** Commits {@code gtrid} on every branch (each an XA-started branch of a distinct shard). */
    public CompletableFuture<Void> commit(String gtrid, List<XaBranch> branches) {
        List<XaBranch> all = distinctShards(branches);
        inFlight.add(requireNonNull(gtrid, "gtrid is null"));
        CompletableFuture<Void> outcome;
        if (all.isEmpty()) {
            outcome = CompletableFuture.completedFuture(null);
        } else if (all.size() == 1) {
            outcome = commitOnePhase(gtrid, all.get(0));
        } else {
            outcome = commitTwoPhase(gtrid, all);
        }
        return outcome.whenComplete((ok, failure) -> inFlight.remove(gtrid));
    }

    /** Rolls {@code gtrid} back on every branch; fails with the first rollback error, after trying all. */
    public CompletableFuture<Void> rollback(String gtrid, List<XaBranch> branches) {
        List<XaBranch> all = distinctShards(branches);
        inFlight.add(requireNonNull(gtrid, "gtrid is null"));
        List<CompletableFuture<Void>> rollbacks = new ArrayList<>();
        for (XaBranch branch : all) {
            XaId id = new XaId(gtrid, branch.shard());
            // XA END fails on a branch already ended or rolled back by the server; XA ROLLBACK decides.
            rollbacks.add(step(branch, XaStatements.end(id))
                    .handle((ok, ignored) -> null)
                    .thenCompose(ignored -> step(branch, XaStatements.rollback(id))));
        }
        return settle(rollbacks)
                .thenCompose(ignored -> failIfAny(rollbacks))
                .whenComplete((ok, failure) -> inFlight.remove(gtrid));
    }

    private CompletableFuture<Void> commitOnePhase(String gtrid, XaBranch branch) {
        XaId id = new XaId(gtrid, branch.shard());
        return step(branch, XaStatements.end(id)).handle((ok, endFailure) -> {
            if (endFailure == null) {
                return step(branch, XaStatements.commitOnePhase(id));
            }
            return step(branch, XaStatements.rollback(id))
                    .handle((rolledBack, rollbackFailure) -> {
                        suppress(endFailure, rollbackFailure);
                        return CompletableFuture.<Void>failedFuture(unwrap(endFailure));
                    })
                    .thenCompose(Function.identity());
        }).thenCompose(Function.identity());
    }

    private CompletableFuture<Void> commitTwoPhase(String gtrid, List<XaBranch> branches) {
        List<CompletableFuture<Void>> prepares = new ArrayList<>();
        for (XaBranch branch : branches) {
            XaId id = new XaId(gtrid, branch.shard());
            prepares.add(step(branch, XaStatements.end(id)).thenCompose(ok -> step(branch, XaStatements.prepare(id))));
        }
        return settle(prepares).thenCompose(ignored -> {
            Throwable prepareFailure = firstFailure(prepares);
            if (prepareFailure != null) {
                return rollbackAll(gtrid, branches).thenCompose(rollbackFailure -> {
                    suppress(prepareFailure, rollbackFailure);
                    return CompletableFuture.<Void>failedFuture(prepareFailure);
                });
            }
            return decide(gtrid).thenCompose(decision -> decision == XaDecision.COMMIT
                    ? commitPrepared(gtrid, branches)
                    : rollbackAll(gtrid, branches).thenCompose(rollbackFailure -> {
                        XaException aborted = new XaException("transaction " + gtrid + " was rolled back: the decision"
                                + " log holds ABORT for it (recovery fenced it, or its commit could not be logged)", null);
                        suppress(aborted, rollbackFailure);
                        return CompletableFuture.<Void>failedFuture(aborted);
                    }));
        });
    }

    /** COMMIT when it could be logged; otherwise ABORT if that could be, or whichever was recorded first. */
    private CompletableFuture<XaDecision> decide(String gtrid) {
        return CompletableFuture.supplyAsync(() -> log.decide(gtrid, XaDecision.COMMIT), blocking)
                .handle((decision, logFailure) -> {
                    if (logFailure == null) {
                        return CompletableFuture.completedFuture(decision);
                    }
                    LOG.log(System.Logger.Level.WARNING, "transaction " + gtrid + ": cannot log the commit decision,"
                            + " fencing it with an abort: " + FailureText.of(unwrap(logFailure)));
                    return CompletableFuture.supplyAsync(() -> log.decide(gtrid, XaDecision.ABORT), blocking)
                            .exceptionally(fenceFailure -> {
                                XaException unknown = new XaException("transaction " + gtrid + ": cannot log its commit"
                                        + " decision; its branches stay prepared for recovery", unwrap(logFailure), true);
                                unknown.addSuppressed(unwrap(fenceFailure));
                                throw unknown;
                            });
                })
                .thenCompose(Function.identity());
    }

    private CompletableFuture<Void> commitPrepared(String gtrid, List<XaBranch> branches) {
        List<CompletableFuture<Void>> commits = new ArrayList<>();
        for (XaBranch branch : branches) {
            commits.add(step(branch, XaStatements.commit(new XaId(gtrid, branch.shard()))).whenComplete((ok, failure) -> {
                if (failure != null) {
                    commitFailuresAfterDecision.incrementAndGet();
                    LOG.log(System.Logger.Level.WARNING, "transaction " + gtrid + " is decided but XA COMMIT failed on shard "
                            + branch.shard() + "; recovery will commit it: " + FailureText.of(unwrap(failure)));
                }
            }));
        }
        return settle(commits).thenAccept(ignored -> {
            if (firstFailure(commits) == null) {
                CompletableFuture.runAsync(() -> log.forget(gtrid), blocking).exceptionally(failure -> {
                    LOG.log(System.Logger.Level.INFO, "transaction " + gtrid + ": decision not deleted yet (recovery's"
                            + " cleanup will): " + FailureText.of(unwrap(failure)));
                    return null;
                });
            }
        });
    }

    /** XA ROLLBACK on every branch; completes with the first failure (null when all rolled back). */
    private CompletableFuture<Throwable> rollbackAll(String gtrid, List<XaBranch> branches) {
        List<CompletableFuture<Void>> rollbacks = new ArrayList<>();
        for (XaBranch branch : branches) {
            rollbacks.add(step(branch, XaStatements.rollback(new XaId(gtrid, branch.shard()))));
        }
        return settle(rollbacks).thenApply(ignored -> firstFailure(rollbacks));
    }

    /** One statement on a branch; a branch that throws instead of failing its future fails the step. */
    private static CompletableFuture<Void> step(XaBranch branch, String sql) {
        try {
            return requireNonNull(branch.run(sql), "XaBranch.run returned null");
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static List<XaBranch> distinctShards(List<XaBranch> branches) {
        List<XaBranch> all = List.copyOf(requireNonNull(branches, "branches is null"));
        Set<String> shards = new HashSet<>();
        for (XaBranch branch : all) {
            if (!shards.add(branch.shard())) {
                throw new IllegalArgumentException("two branches on shard " + branch.shard());
            }
        }
        return all;
    }

    /** Completes when every future has, whatever their outcomes. */
    private static CompletableFuture<Void> settle(List<CompletableFuture<Void>> futures) {
        return CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).handle((ok, failure) -> null);
    }

    private static Throwable firstFailure(List<CompletableFuture<Void>> settled) {
        for (CompletableFuture<Void> future : settled) {
            if (future.isCompletedExceptionally()) {
                return unwrap(future.handle((ok, failure) -> failure).join());
            }
        }
        return null;
    }

    private static CompletableFuture<Void> failIfAny(List<CompletableFuture<Void>> settled) {
        Throwable first = null;
        for (CompletableFuture<Void> future : settled) {
            Throwable failure = future.isCompletedExceptionally() ? unwrap(future.handle((ok, e) -> e).join()) : null;
            if (first == null) {
                first = failure;
            } else {
                suppress(first, failure);
            }
        }
        return first == null ? CompletableFuture.completedFuture(null) : CompletableFuture.failedFuture(first);
    }

    private static void suppress(Throwable into, Throwable failure) {
        if (failure != null && failure != into) {
            into.addSuppressed(failure);
        }
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
