package io.shardgate.storage.health;

/**
 * An engine's health rules: a pure function of the previous and the current sample, so that
 * "rising between probes" needs no hidden state.
 */
public interface HealthRules {

    /**
     * @param previous the sample of the previous successful probe, or null for the first one
     *                 (or the first after the backend was unreachable)
     */
    Judgement judge(EngineSample previous, EngineSample current);
}
