package org.metaroce.mrct.harness.engine;

import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.cases.AttributeValue;
import org.metaroce.mrct.harness.cases.Step;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.QpAttribute;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.spi.ReceiveWqe;
import org.metaroce.mrct.spi.RejectedException;

/**
 * The steps that act through the control plane: {@code post_receive}, {@code post_send}, {@code invalidate}, {@code
 * modify_qp}, {@code write_memory}, and {@code expect_qp} (the one that checks a QP's state). Each keeps the harness's
 * model of the connection or region in step with what it asked of the device (or of the peer, for peer regions).
 */
final class ControlSteps {
    private final ControlPlane control;
    private final Names names;
    private final CaseWorld world;
    private final RequesterSteps requesterSteps;
    private final FramePump pump;

    ControlSteps(final ControlPlane control, final Names names, final CaseWorld world,
                 final RequesterSteps requesterSteps, final FramePump pump) {
        this.control = control;
        this.names = names;
        this.world = world;
        this.requesterSteps = requesterSteps;
        this.pump = pump;
    }

    /** Posts {@code count} receive WQEs back to back in the region; those on the device join the model. */
    void postReceive(final Step.PostReceive p) {
        final Connection c = world.connection(p.connection());
        final Region region = world.region(p.region());
        final long offset = p.offset() == null ? 0 : names.eval(p.offset());
        final int length = (int) names.eval(p.length());
        final long count = names.eval(p.count());
        for (int k = 0; k < count; k++) {
            final long va = region.mr.va() + offset + (long) k * length;
            final long wrId = c.takeReceiveWrId();
            if (region.onPeer) {
                world.peer().control().postReceive(c.peerQpn, new ReceiveWqe(wrId, va, length, region.mr.lkey()));
                continue;
            }
            control.postReceive(c.deviceQpn, new ReceiveWqe(wrId, va, length, region.mr.lkey()));
            c.posted(new Connection.Receive(wrId, va, length, region));
        }
    }

    void postSend(final Step.PostSend p) {
        requesterSteps.postSend(p, world.connection(p.connection()), world.regions());
    }

    void invalidate(final Step.Invalidate i) {
        control.invalidateRkey(world.region(i.region()).mr.rkey());
        world.invalidated(world.region(i.region()).mr.rkey());
    }

    /** Writes the pattern into the region through its owner's control plane; the model follows. */
    void writeMemory(final Step.WriteMemory w) {
        final Region region = world.region(w.region());
        final long offset = w.offset() == null ? 0 : names.eval(w.offset());
        final int length = w.data().length() == null ? (int) (region.mr.length() - offset)
            : (int) names.eval(w.data().length());
        final byte[] bytes = w.data().pattern().bytes(w.data().offset() == null ? 0 : names.eval(w.data().offset()),
            length, names.resolver());
        world.controlOf(region, control).writeMemory(region.mr.va() + offset, bytes);
        region.place(region.mr.va() + offset, bytes);
    }

    void expectQp(final Step.ExpectQp e) {
        final QpState actual = control.queryQp(world.connection(e.connection()).deviceQpn);
        if (actual != e.state()) {
            throw new StepFailure("QP " + e.connection() + " is in " + actual + ", expected "
                + e.state(), -1, List.of(new FieldDiff("qp.state",
                    e.state().name(), actual.name())), null, null);
        }
        if (actual == QpState.ERROR) {
            world.connection(e.connection()).inError(pump.caseNow());
        }
    }

    /**
     * A {@code modify_qp} step. The first modification after a RESET gives the QP its creation attributes again (the
     * case's own attributes take precedence), as the control plane of a peer bringing the connection back would; the
     * harness's end of the connection starts afresh at the RESET, and a new rq_psn or sq_psn given before the QP is
     * back in RTS moves the connection's PSN spaces (MR-QP-010).
     */
    void modifyQp(final Step.ModifyQp m) {
        final Connection c = world.connection(m.connection());
        final QpState target = m.state();
        QpAttributes attributes = c.baseAttributesFor(target);
        for (final Map.Entry<QpAttribute, AttributeValue> entry : m.attributes().entrySet()) {
            attributes = attributes.with(entry.getKey(), entry.getValue().resolve(names::eval));
        }
        try {
            control.modifyQp(c.deviceQpn, target, attributes);
        } catch (RejectedException e) {
            if (!m.rejected()) {
                throw new StepFailure("the device rejected the modification: " + e.getMessage(), -1,
                    List.of(new FieldDiff("modify_qp", "accepted", "rejected: " + e.getMessage())), null, null);
            }
            return;
        }
        if (m.rejected()) {
            throw new StepFailure("the device accepted a modification it must reject", -1,
                List.of(new FieldDiff("modify_qp", "rejected", "accepted")), null, null);
        }
        if (target == QpState.ERROR) {
            c.inError(pump.caseNow());
        }
        if (c.modified(target, attributes)) {
            // the PSN spaces moved (or kept their place): expressions see where they are now
            if (attributes.has(QpAttribute.RQ_PSN)) {
                names.bind(c.name + ".psn", c.psnBase());
            }
            if (attributes.has(QpAttribute.SQ_PSN)) {
                names.bind(c.name + ".device_psn", c.devicePsnBase());
            }
        }
    }
}
