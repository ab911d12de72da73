package io.shardgate.proxy.jobs;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class JobMetricsTest {
    @Test
    void eachJobsPhaseRowsLagAndDiffAreInTheScrape() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Job job = JobJsonTest.reshard().withPhase(JobPhase.COPYING, "p", Instant.EPOCH)
                .withTable("shop.orders", new Job.TableProgress(250, 1000, null, null, 0, null))
                .withStreamLag(0.5).withDiff(new Job.DiffProgress(3, 9, 0, 0));
        AtomicReference<Map<String, Job>> seen = new AtomicReference<>(Map.of(job.id(), job));
        JobMetrics metrics = new JobMetrics(registry, seen::get);
        metrics.refresh();
        String scrape = registry.scrape();
        String id = "job=\"" + job.id() + "\"";
        assertThat(scrape).contains("shardgate_job_rows_copied{" + id + ",table=\"shop.orders\"} 250.0");
        assertThat(scrape).contains("shardgate_job_rows_total{" + id + ",table=\"shop.orders\"} 1000.0");
        assertThat(scrape).contains("shardgate_job_phase{" + id + ",phase=\"copying\"} 1.0");
        assertThat(scrape).contains("shardgate_job_phase{" + id + ",phase=\"created\"} 0.0");
        assertThat(scrape).contains("shardgate_job_stream_lag_seconds{" + id + "} 0.5");
        assertThat(scrape).contains("shardgate_job_diff_chunks_done{" + id + "} 3.0");

        seen.set(Map.of(job.id(), job.withPhase(JobPhase.DONE, "p", Instant.EPOCH)
                .withTable("shop.orders", new Job.TableProgress(1000, 1000, null, null, 0, null))));
        metrics.refresh();
        scrape = registry.scrape();
        assertThat(scrape).contains("shardgate_job_phase{" + id + ",phase=\"done\"} 1.0");
        assertThat(scrape).contains("shardgate_job_phase{" + id + ",phase=\"copying\"} 0.0");
        assertThat(scrape).contains("shardgate_job_rows_copied{" + id + ",table=\"shop.orders\"} 1000.0");
    }
}
