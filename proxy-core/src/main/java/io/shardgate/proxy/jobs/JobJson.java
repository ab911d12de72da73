package io.shardgate.proxy.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A job document's JSON (snake_case keys, phases and kinds in lower case). Unknown keys are ignored on read, so a
 * proxy of an older version can still show a newer one's jobs.
 */
public final class JobJson {
    private final ObjectMapper mapper = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    public String write(Job job) {
        try {
            return mapper.writeValueAsString(job);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write job " + job.id() + ": " + e.getOriginalMessage(), e);
        }
    }

    /** Reads a job; throws {@link IllegalArgumentException} when {@code json} is not one. */
    public Job read(String json) {
        try {
            Job job = mapper.readValue(json, Job.class);
            if (job == null) {
                throw new IllegalArgumentException("not a job: null");
            }
            return job;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a job: " + e.getOriginalMessage(), e);
        } catch (NullPointerException e) {
            throw new IllegalArgumentException("not a job: " + e.getMessage(), e);
        }
    }

    ObjectMapper mapper() {
        return mapper;
    }
}
