package org.metaroce.mrct.harness.engine;

import java.util.EnumSet;
import java.util.Set;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.cases.Step;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.spec.Rule;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.spi.Capability;

/**
 * Decides whether a case can run: the device must claim the case's PICS items (and those of its rules), and the
 * adapter must have every capability the case needs, declared or implied by its steps.
 */
final class Applicability {
    private Applicability() {
    }

    /** Null when the case applies, else the reason it does not. */
    static String reason(final CaseDef def, final DeviceProfile profile, final Set<Capability> available,
                         final Specification spec, final boolean havePeer) {
        if (!havePeer && def.connections().stream().anyMatch(c -> c.peer())) {
            return "the case talks to a peer device through the harness's network, and the run has no peer";
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

    /** Capabilities the case declares or its steps imply. */
    static Set<Capability> needed(final CaseDef def) {
        final Set<Capability> out = EnumSet.noneOf(Capability.class);
        for (final String label : def.capabilities()) {
            out.add(Capability.byLabel(label));
        }
        if (def.connections().stream().anyMatch(c -> "ipv6".equals(c.network()))) {
            out.add(Capability.IPV6);
        }
        if ("requester".equals(def.role())) {
            out.add(Capability.REQUESTER_CONTROL);
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
        for (final Step step : steps) {
            if (step instanceof Step.ExpectMemory m) {
                if (!onPeer.contains(m.region())) {
                    out.add(Capability.MEMORY_READBACK);
                }
            } else if (step instanceof Step.WriteMemory w) {
                if (!onPeer.contains(w.region())) {
                    out.add(Capability.MEMORY_WRITE);
                }
            } else if (step instanceof Step.ExpectCounters) {
                out.add(Capability.COUNTERS);
            } else if (step instanceof Step.ExpectCompletions) {
                out.add(Capability.COMPLETIONS);
            } else if (step instanceof Step.PostSend) {
                out.add(Capability.REQUESTER_CONTROL);
            } else if (step instanceof Step.Message m && !m.message().ce().isEmpty()) {
                out.add(Capability.ECN_WRITE);
            } else if (step instanceof Step.Send s && s.packet().ecn() != null) {
                out.add(Capability.ECN_WRITE);
            } else if (step instanceof Step.Flow f && f.flow().packets().stream().anyMatch(p -> p.ce())) {
                out.add(Capability.ECN_WRITE);
            } else if (step instanceof Step.Repeat r) {
                scan(r.steps(), out, onPeer);
            }
        }
    }
}
