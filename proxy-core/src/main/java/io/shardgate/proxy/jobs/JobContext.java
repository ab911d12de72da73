package io.shardgate.proxy.jobs;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Clock;
import java.util.Optional;
import java.util.function.UnaryOperator;

/** What a {@link JobExecutor} gets: its job, the one way to write it, the operator's requests and the lease's state. */
public interface JobContext {
    /** The newest version of the job this runner knows (its own last write, or a change it was told of). */
    Job job();

    /**
     * Writes {@code change} applied to the newest job, by compare-and-set under the runner lease; when someone else
     * wrote in between (the API recording a request), {@code change} is applied again to what they wrote. Returns the
     * job as written.
     *
     * @throws LostLeaseException when this runner no longer holds the job: stop at once
     */
    Job update(UnaryOperator<Job> change) throws LostLeaseException;

    /** {@link #update} of one checkpoint ({@link Job#withCheckpoint}). */
    default Job checkpoint(String key, JsonNode value) throws LostLeaseException {
        return update(job -> job.withCheckpoint(key, value));
    }

    /** Enters {@code phase}, recorded with this proxy as its author. */
    default Job phase(JobPhase phase) throws LostLeaseException {
        return update(job -> job.withPhase(phase, proxyId(), clock().instant()));
    }

    /** A step gave up: {@code reason} becomes the job's error (and a warning in the log), and the job is in {@code phase} again. */
    default Job back(JobPhase phase, String reason) throws LostLeaseException {
        System.getLogger(JobContext.class.getName()).log(System.Logger.Level.WARNING, "job " + job().id() + ": " + reason);
        update(job -> job.withError(reason));
        return phase(phase);
    }

    /** What an operator asked for, not yet acted on (the executor clears it with {@code withRequestedAction(null)}). */
    default Optional<JobAction> requestedAction() {
        return job().pendingAction();
    }

    /** An operator asked to cancel the job. */
    default boolean cancelled() {
        return requestedAction().filter(action -> action == JobAction.CANCEL).isPresent();
    }

    /** This runner's lease is known lost, or the proxy is stopping: stop at once, writing nothing more. */
    boolean lostLease();

    /** The proxy that runs the job. */
    String proxyId();

    Clock clock();
}
