package io.shardgate.proxy.reshard;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.proxy.jobs.JobContext;
import io.shardgate.proxy.jobs.JobPhase;
import io.shardgate.proxy.topology.Cutover;
import io.shardgate.proxy.topology.LiveTopology;
import io.shardgate.proxy.topology.TopologyAdmin;

/**
 * A job taken over in {@code cutting_over}: its last runner died during the cutover. Its write hold, if still in the
 * topology, is lifted at once (else every proxy would go on holding the source's writes); then the topology tells
 * whether the switch was written. If it was, the job is {@code switched} (its reverse streams start, {@link AfterSwitch});
 * if not, it is {@code ready} again, and the operator asks for the cutover once more.
 */
final class CutoverRecovery {
    private static final System.Logger LOG = System.getLogger(CutoverRecovery.class.getName());

    private CutoverRecovery() {
    }

    /** Whether the switch had been written (the job is {@code switched} now). */
    static boolean recover(JobContext context, TopologyAdmin topology, LiveTopology live, ReshardPlan plan) throws Exception {
        String job = context.job().id();
        Outcome outcome = settle(context, topology, live, plan.switchEdit(), "cutover");
        if (outcome.switched()) {
            LOG.log(System.Logger.Level.INFO, "job " + job + ": its cutover had switched before its runner stopped");
            context.update(current -> current.withRequestedAction(null));
            context.phase(JobPhase.SWITCHED);
            return true;
        }
        LOG.log(System.Logger.Level.WARNING, "job " + job + ": its cutover did not switch before its runner stopped; ready again");
        context.update(current -> current.withError(outcome.stoppedBeforeSwitch()));
        context.phase(JobPhase.READY);
        return false;
    }

    /** What a cutover (or a reverse) its runner left half-done came to, once its write hold is lifted. */
    record Outcome(String step, boolean switched, boolean held) {
        /** The job's error when the switch was not written. */
        String stoppedBeforeSwitch() {
            return "the proxy running the " + step + " stopped before the switch" + (held ? "; its write hold was lifted" : "")
                    + ": ask for the " + step + " again";
        }
    }

    /**
     * Lifts the job's write hold if it is still in the topology (else every proxy would go on holding those writes), then
     * tells whether the topology has what {@code edit}, the {@code step}'s switch, writes.
     */
    static Outcome settle(JobContext context, TopologyAdmin topology, LiveTopology live, java.util.function.Consumer<ObjectNode> edit,
                          String step) throws Exception {
        String job = context.job().id();
        boolean held = live.applied().document().holds().stream().anyMatch(hold -> hold.job().equals(job));
        if (held) {
            topology.commit("job " + job + " on " + context.proxyId(), "lifted the write hold of job " + job
                    + ", whose runner stopped during its " + step, tree -> Cutover.lift(tree, job));
        }
        return new Outcome(step, written(live, edit), held);
    }

    /** Whether the topology already has what {@code edit} (a cutover's switch) writes. */
    static boolean written(LiveTopology live, java.util.function.Consumer<ObjectNode> edit) {
        ObjectNode now = live.applied().document().tree().deepCopy();
        now.remove("write_holds");
        now.remove("topology_history");
        ObjectNode after = now.deepCopy();
        edit.accept(after);
        return now.equals(after);
    }
}
