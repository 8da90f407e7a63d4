package org.metaroce.mrct.harness.generate;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.metaroce.mrct.harness.cases.FlowSpec;

/**
 * Shrinks a failing flow to a minimal one that still fails the same way: fewer messages, shorter messages, no CE
 * marks or duplicates that are not needed, and packets as close to PSN order as the failure allows. Each candidate is
 * kept only when {@code stillFails} says it still fails; the search stops when no single change helps.
 */
public final class Shrinker {
    private Shrinker() {
    }

    /** The smallest failing flow found from {@code flow}. */
    public static GeneratedFlow shrink(final GeneratedFlow flow, final Predicate<GeneratedFlow> stillFails) {
        return GreedyShrink.shrink(flow, Shrinker::candidates, stillFails);
    }

    /** One-step simplifications, most drastic first. */
    static List<GeneratedFlow> candidates(final GeneratedFlow f) {
        final List<GeneratedFlow> out = new ArrayList<>();
        for (int m = f.messages().size() - 1; m >= 0 && f.messages().size() > 1; m--) {
            out.add(withoutMessage(f, m));
        }
        for (int m = 0; m < f.messages().size(); m++) {
            final GeneratedFlow.Message message = f.messages().get(m);
            if (message.packets(f.pmtu()) > 1) {
                out.add(withLength(f, m, f.pmtu() * (message.packets(f.pmtu()) / 2)));
            }
            if (message.length() > 0 && message.packets(f.pmtu()) == 1 && message.length() > 1) {
                out.add(withLength(f, m, message.length() / 2));
            }
        }
        for (int i = 0; i < f.packets().size(); i++) {
            final FlowSpec.Packet p = f.packets().get(i);
            if (p.ce() || p.duplicate()) {
                out.add(withPacket(f, i, new FlowSpec.Packet(p.message(), p.packet(), false, false, p.ackReq())));
            }
        }
        for (int i = 0; i + 1 < f.packets().size(); i++) {
            final FlowSpec.Packet a = f.packets().get(i);
            final FlowSpec.Packet b = f.packets().get(i + 1);
            if (a.message() > b.message() || a.message() == b.message() && a.packet() > b.packet()) {
                final List<FlowSpec.Packet> swapped = new ArrayList<>(f.packets());
                swapped.set(i, new FlowSpec.Packet(b.message(), b.packet(), b.ce(), b.duplicate(), false));
                swapped.set(i + 1, new FlowSpec.Packet(a.message(), a.packet(), a.ce(), a.duplicate(),
                    i + 1 == f.packets().size() - 1));
                out.add(new GeneratedFlow(f.seed(), f.pmtu(), f.psn(), f.messages(), swapped));
            }
        }
        return out;
    }

    private static GeneratedFlow withoutMessage(final GeneratedFlow f, final int removed) {
        final List<GeneratedFlow.Message> messages = new ArrayList<>(f.messages());
        messages.remove(removed);
        final List<FlowSpec.Packet> packets = new ArrayList<>();
        for (final FlowSpec.Packet p : f.packets()) {
            if (p.message() != removed) {
                packets.add(new FlowSpec.Packet(p.message() > removed ? p.message() - 1 : p.message(), p.packet(),
                    p.ce(), p.duplicate(), false));
            }
        }
        return new GeneratedFlow(f.seed(), f.pmtu(), f.psn(), messages, lastAsksForAck(packets));
    }

    private static GeneratedFlow withLength(final GeneratedFlow f, final int index, final int length) {
        final List<GeneratedFlow.Message> messages = new ArrayList<>(f.messages());
        final GeneratedFlow.Message old = messages.get(index);
        final GeneratedFlow.Message shorter = new GeneratedFlow.Message(old.op(), old.offset(), length,
            old.immediate());
        messages.set(index, shorter);
        final List<FlowSpec.Packet> packets = new ArrayList<>();
        for (final FlowSpec.Packet p : f.packets()) {
            if (p.message() != index || p.packet() < shorter.packets(f.pmtu())) {
                packets.add(new FlowSpec.Packet(p.message(), p.packet(), p.ce(), p.duplicate(), false));
            }
        }
        return new GeneratedFlow(f.seed(), f.pmtu(), f.psn(), messages, lastAsksForAck(packets));
    }

    private static GeneratedFlow withPacket(final GeneratedFlow f, final int index, final FlowSpec.Packet packet) {
        final List<FlowSpec.Packet> packets = new ArrayList<>(f.packets());
        packets.set(index, packet);
        return new GeneratedFlow(f.seed(), f.pmtu(), f.psn(), f.messages(), packets);
    }

    private static List<FlowSpec.Packet> lastAsksForAck(final List<FlowSpec.Packet> packets) {
        if (!packets.isEmpty()) {
            final int last = packets.size() - 1;
            final FlowSpec.Packet p = packets.get(last);
            packets.set(last, new FlowSpec.Packet(p.message(), p.packet(), p.ce(), p.duplicate(), true));
        }
        return packets;
    }
}
