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
        boolean held = live.applied().document().holds().stream().anyMatch(hold -> hold.job().equals(job));
        if (held) {
            topology.commit("job " + job + " on " + context.proxyId(), "lifted the write hold of job " + job
                    + ", whose runner stopped during its cutover", tree -> Cutover.lift(tree, job));
        }
        if (written(live, plan.switchEdit())) {
            LOG.log(System.Logger.Level.INFO, "job " + job + ": its cutover had switched before its runner stopped");
            context.update(current -> current.withRequestedAction(null));
            context.phase(JobPhase.SWITCHED);
            return true;
        }
        LOG.log(System.Logger.Level.WARNING, "job " + job + ": its cutover did not switch before its runner stopped; ready again");
        context.update(current -> current.withError("the proxy running the cutover stopped before the switch"
                + (held ? "; its write hold was lifted" : "") + ": ask for the cutover again"));
        context.phase(JobPhase.READY);
        return false;
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
