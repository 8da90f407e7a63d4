package org.metaroce.mrct.harness.engine;

import java.util.EnumSet;
import java.util.Set;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.cases.IpVersion;
import org.metaroce.mrct.harness.cases.Step;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.spec.Role;
import org.metaroce.mrct.harness.spec.Rule;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.spi.Capability;
import org.metaroce.mrct.spi.QpAttribute;

/**
 * Decides whether a case can run: the device must claim the case's PICS items (and those of its rules), and the
 * adapter must have every capability the case needs, declared or implied by its steps.
 */
final class Applicability {
    /**
     * Why a requester case that judges the device's pacing needs virtual time. The harness's capture timestamps of a
     * software path carry tens of microseconds of jitter, while a data packet at the line rate lasts nanoseconds and a
     * DCQCN rate step is judged over 16 of them: window rates ({@code expect_rate}), least gaps ({@code min_gap}) and
     * the queue of a switch drained at the line rate cannot be measured honestly.
     */
    static final String REAL_TIME_PACING = "the case judges the device's pacing (rates over windows of data packets, "
        + "gaps between them or a switch queue drained at the line rate) to the nanosecond, which needs the "
        + "adapter's virtual time: real-time capture timestamps jitter by tens of microseconds";

    private Applicability() {
    }

    /** Null when the case applies, else the reason it does not. */
    static String reason(final CaseDef def, final DeviceProfile profile, final Set<Capability> available,
                         final Specification spec, final boolean havePeer) {
        if (!havePeer && def.connections().stream().anyMatch(c -> c.peer())) {
            return "the case talks to a peer device through the harness's network, and the run has no peer";
        }
        if (def.role() == Role.REQUESTER && !available.contains(Capability.VIRTUAL_TIME) && judgesPacing(def)) {
            return REAL_TIME_PACING;
        }
        for (final String item : def.pics()) {
            if (!profile.pics().contains(item)) {
                return "the device does not claim the PICS item " + item;
            }
        }
        for (final String ruleId : def.rules()) {
            final Rule rule = spec.rule(ruleId);
            if (rule != null && rule.pics() != null && !profile.pics().contains(rule.pics())) {
                return ruleId + " applies only with the PICS item " + rule.pics() + ", which the device does not claim";
            }
        }
        for (final Capability needed : needed(def)) {
            if (!available.contains(needed)) {
                return "the adapter lacks the capability " + needed.label();
            }
        }
        return null;
    }

    /**
     * Whether a step of the case judges the device's pacing: {@code expect_rate}, an {@code expect_traffic} with a
     * least gap or a switch queue, or a network with a congested switch port (drained at the line rate).
     */
    static boolean judgesPacing(final CaseDef def) {
        return pacing(def.setupSteps()) || pacing(def.steps());
    }

    private static boolean pacing(final java.util.List<Step> steps) {
        for (final Step step : steps) {
            if (step instanceof Step.ExpectRate
                || step instanceof Step.ExpectTraffic t && (t.traffic().minGap() != null
                    || t.traffic().maxQueue() != null || t.traffic().queueBelow() != null)
                || step instanceof Step.Network n && n.network().switchPort() != null
                || step instanceof Step.Repeat r && pacing(r.steps())
                || step instanceof Step.When w && (pacing(w.steps()) || pacing(w.otherwise()))) {
                return true;
            }
        }
        return false;
    }

    /** Capabilities the case declares or its steps imply. */
    static Set<Capability> needed(final CaseDef def) {
        final Set<Capability> out = EnumSet.noneOf(Capability.class);
        out.addAll(def.capabilities());
        if (def.connections().stream().anyMatch(c -> c.network() == IpVersion.IPV6)) {
            out.add(Capability.IPV6);
        }
        if (def.connections().stream().anyMatch(c -> c.vlan() != null)) {
            out.add(Capability.L2_CONTROL);
        }
        if (def.role() == Role.REQUESTER) {
            out.add(Capability.REQUESTER_CONTROL);
        }
        // a spraying QP's data packets leave from many UDP source ports (every one is judged, MR-MP-002): a data plane
        // that rebuilds the lower headers (a device answering over UDP sends from its one socket) cannot carry them
        if (def.connections().stream().anyMatch(c -> c.attributes().get(QpAttribute.SPRAY) != null)) {
            out.add(Capability.L2_CONTROL);
        }
        final Set<String> onPeer = new java.util.HashSet<>();
        def.regions().stream().filter(r -> r.onPeer()).forEach(r -> onPeer.add(r.name()));
        if (def.regions().stream().anyMatch(r -> r.fill() != null && !r.onPeer())) {
            out.add(Capability.MEMORY_WRITE);
        }
        scan(def.setupSteps(), out, onPeer);
        scan(def.steps(), out, onPeer);
        return out;
    }

    private static void scan(final java.util.List<Step> steps, final Set<Capability> out, final Set<String> onPeer) {
        final Implied implied = new Implied(out, onPeer);
        for (final Step step : steps) {
            step.accept(implied);
        }
    }

    /** The capabilities each kind of step implies, added to {@code out}; steps inside {@code repeat} too. */
    private static final class Implied implements Step.Visitor<Void> {
        private final Set<Capability> out;
        /** The regions on the peer: reading or writing them needs nothing of the adapter. */
        private final Set<String> onPeer;

        Implied(final Set<Capability> out, final Set<String> onPeer) {
            this.out = out;
            this.onPeer = onPeer;
        }

        @Override
        public Void visit(final Step.Send step) {
            if (step.packet().ecn() != null) {
                out.add(Capability.ECN_WRITE);
            }
            if (shapesLowerHeaders(step.packet())) {
                out.add(Capability.L2_CONTROL);
            }
            return null;
        }

        @Override
        public Void visit(final Step.Message step) {
            if (!step.message().ce().isEmpty()) {
                out.add(Capability.ECN_WRITE);
            }
            return null;
        }

        @Override
        public Void visit(final Step.Flow step) {
            if (step.flow().packets().stream().anyMatch(p -> p.ce())) {
                out.add(Capability.ECN_WRITE);
            }
            return null;
        }

        @Override
        public Void visit(final Step.Expect step) {
            observes(step.template(), out);
            return null;
        }

        @Override
        public Void visit(final Step.ExpectUnordered step) {
            step.templates().forEach(t -> observes(t, out));
            return null;
        }

        @Override
        public Void visit(final Step.ExpectNone step) {
            if (step.filter() != null) {
                observes(step.filter(), out);
            }
            return null;
        }

        @Override
        public Void visit(final Step.Advance step) {
            return null; // the clock: every adapter has one
        }

        @Override
        public Void visit(final Step.ExpectMemory step) {
            if (!onPeer.contains(step.region())) {
                out.add(Capability.MEMORY_READBACK);
            }
            return null;
        }

        @Override
        public Void visit(final Step.ExpectCompletions step) {
            out.add(Capability.COMPLETIONS);
            return null;
        }

        @Override
        public Void visit(final Step.ExpectCounters step) {
            out.add(Capability.COUNTERS);
            return null;
        }

        @Override
        public Void visit(final Step.ExpectQp step) {
            return null; // querying a QP is part of every control plane
        }

        @Override
        public Void visit(final Step.PostReceive step) {
            return null; // posting receives is part of every control plane
        }

        @Override
        public Void visit(final Step.Invalidate step) {
            return null; // invalidating an R_Key is part of every control plane
        }

        @Override
        public Void visit(final Step.ModifyQp step) {
            return null; // modifying a QP is part of every control plane
        }

        @Override
        public Void visit(final Step.WriteMemory step) {
            if (!onPeer.contains(step.region())) {
                out.add(Capability.MEMORY_WRITE);
            }
            return null;
        }

        @Override
        public Void visit(final Step.Repeat step) {
            scan(step.steps(), out, onPeer);
            return null;
        }

        @Override
        public Void visit(final Step.When step) {
            scan(step.steps(), out, onPeer); // both branches: which one runs is known only with the case's names
            scan(step.otherwise(), out, onPeer);
            return null;
        }

        @Override
        public Void visit(final Step.PostSend step) {
            out.add(Capability.REQUESTER_CONTROL);
            return null;
        }

        @Override
        public Void visit(final Step.Network step) {
            return null; // the harness's own network between the device and its peer
        }

        @Override
        public Void visit(final Step.ExpectTraffic step) {
            if (step.traffic().sports() != null || step.traffic().sportsBalanced() != null) {
                out.add(Capability.L2_CONTROL); // the device's UDP source ports, a lower-header field
            }
            return null;
        }

        @Override
        public Void visit(final Step.ExpectRate step) {
            return null; // judged on what the harness received
        }
    }

    /**
     * What matching the device's frames on {@code template} implies: their ECN field needs ECN_READ, their other
     * lower-header fields (a data plane that carries only UDP payloads rebuilds them) need L2_CONTROL.
     */
    private static void observes(final org.metaroce.mrct.harness.cases.FrameTemplate template,
                                 final Set<Capability> out) {
        for (final String field : template.fields().keySet()) {
            if (field.equals("ip.ecn")) {
                out.add(Capability.ECN_READ);
            } else if (lowerHeader(field)) {
                out.add(Capability.L2_CONTROL);
            }
        }
    }

    /** An Ethernet, VLAN, IP or UDP field: below BTH. */
    private static boolean lowerHeader(final String field) {
        return field.startsWith("eth.") || field.startsWith("vlan.") || field.startsWith("ip.")
            || field.startsWith("ipv6.") || field.startsWith("udp.");
    }

    /**
     * Whether the frame sets Ethernet, VLAN, IP or UDP fields that an adapter must carry as crafted (IPv4 options,
     * a VLAN tag, overridden lower-header fields, a UDP checksum other than 0): such a case needs L2_CONTROL. The UDP
     * source port is the one lower field any data plane can honour (a datagram's own), so setting it needs nothing.
     */
    private static boolean shapesLowerHeaders(final org.metaroce.mrct.harness.cases.PacketSpec packet) {
        if (packet.ipOptions() != null || packet.vlan() != null || packet.validUdpChecksum()
            || packet.badUdpChecksum()) {
            return true;
        }
        return packet.fields() != null && packet.fields().keySet().stream()
            .anyMatch(field -> lowerHeader(field) && !field.equals("udp.sport"));
    }
}
