package org.loadlab.shell.cluster;

import org.loadlab.shell.metrics.SinkFactory;

import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.cluster.typed.Cluster;

/**
 * The per-member actor of a member with the node or balancer role: registers under
 * {@link Protocol#HOST_KEY} so the gateway finds it, and hands each experiment's commands
 * to that experiment's {@link HostedExperiment} child (spawned by {@link Protocol.PrepareExperiment}).
 */
public final class Host extends AbstractBehavior<Protocol.HostCommand> {
    private final ClusterSettings settings;
    private final SinkFactory tees;
    private final String member;
    private final java.util.Map<String, ActorRef<HostedExperiment.Command>> children = new java.util.HashMap<>();

    /**
     * @param settings the member's settings
     * @param tees give every observation of this member's actors (Kamon), or {@link SinkFactory#NONE}
     */
    public static Behavior<Protocol.HostCommand> create(ClusterSettings settings, SinkFactory tees) {
        return Behaviors.setup(ctx -> new Host(ctx, settings, tees));
    }

    private Host(ActorContext<Protocol.HostCommand> ctx, ClusterSettings settings, SinkFactory tees) {
        super(ctx);
        this.settings = settings;
        this.tees = tees;
        this.member = Cluster.get(ctx.getSystem()).selfMember().address().toString();
        ctx.getSystem().receptionist().tell(Receptionist.register(Protocol.HOST_KEY, ctx.getSelf()));
    }

    private static String childName(String experiment) {
        return "exp-" + experiment;
    }

    private ActorRef<HostedExperiment.Command> child(String experiment) {
        return children.get(experiment);
    }

    /** Local: a HostedExperiment stopped. */
    private record ChildGone(String experiment) implements Protocol.HostCommand {
    }

    @Override
    public Receive<Protocol.HostCommand> createReceive() {
        return newReceiveBuilder()
                .onMessage(Protocol.PrepareExperiment.class, p -> {
                    if (child(p.experiment()) == null) {
                        ActorRef<HostedExperiment.Command> c = getContext().spawn(HostedExperiment.create(p, member, settings, tees),
                                childName(p.experiment()));
                        getContext().watchWith(c, new ChildGone(p.experiment()));
                        children.put(p.experiment(), c);
                    }
                    return this;
                })
                .onMessage(ChildGone.class, g -> {
                    children.remove(g.experiment());
                    return this;
                })
                .onMessage(Protocol.HostCommand.class, this::forward)
                .build();
    }

    private Behavior<Protocol.HostCommand> forward(Protocol.HostCommand c) {
        String experiment = experimentOf(c);
        ActorRef<HostedExperiment.Command> child = experiment == null ? null : child(experiment);
        if (child != null) {
            child.tell(new HostedExperiment.Cmd(c));
        } else if (c instanceof Protocol.Chaos x) {
            x.replyTo().tell(new Protocol.Ack(false, member, "experiment " + experiment + " is not running here"));
        } else if (c instanceof Protocol.SwitchPolicy x) {
            x.replyTo().tell(new Protocol.Ack(false, member, "experiment " + experiment + " is not running here"));
        } else if (c instanceof Protocol.QueryNodes x) {
            x.replyTo().tell(new Protocol.NodesReply(member, List.of()));
        } else if (c instanceof Protocol.QueryExplain x) {
            x.replyTo().tell(new Protocol.ExplainReply(member, List.of()));
        }
        return this;
    }

    private static String experimentOf(Protocol.HostCommand c) {
        if (c instanceof Protocol.BeginRun b) {
            return b.experiment();
        } else if (c instanceof Protocol.StopExperiment s) {
            return s.experiment();
        } else if (c instanceof Protocol.Chaos x) {
            return x.experiment();
        } else if (c instanceof Protocol.SwitchPolicy x) {
            return x.experiment();
        } else if (c instanceof Protocol.QueryNodes x) {
            return x.experiment();
        } else if (c instanceof Protocol.QueryExplain x) {
            return x.experiment();
        }
        return null;
    }
}
