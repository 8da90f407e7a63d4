package org.metaroce.mrct.harness.generate;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Shrinks a failing requester workload to a minimal one that still fails the same way: fewer work requests, shorter
 * ones, fewer losses and duplicates, no reordering, no lost acknowledgements. Each candidate is kept only when
 * {@code stillFails} says it still fails; the search stops when no single change helps.
 */
public final class RequesterShrinker {
    private RequesterShrinker() {
    }

    /** The smallest failing workload found from {@code flow}. */
    public static RequesterFlow shrink(final RequesterFlow flow, final Predicate<RequesterFlow> stillFails) {
        return GreedyShrink.shrink(flow, RequesterShrinker::candidates, stillFails);
    }

    /** One-step simplifications, most drastic first. */
    static List<RequesterFlow> candidates(final RequesterFlow f) {
        final List<RequesterFlow> out = new ArrayList<>();
        for (int m = f.messages().size() - 1; m >= 0 && f.messages().size() > 1; m--) {
            out.add(withoutMessage(f, m));
        }
        if (f.jitterNs() > 0) {
            out.add(new RequesterFlow(f.seed(), f.pmtu(), f.devicePsn(), f.messages(), f.drops(), f.duplicates(), 0,
                f.latencyNs(), f.ackLossEvery()));
        }
        if (f.ackLossEvery() > 0) {
            out.add(new RequesterFlow(f.seed(), f.pmtu(), f.devicePsn(), f.messages(), f.drops(), f.duplicates(),
                f.jitterNs(), f.latencyNs(), 0));
        }
        for (int i = f.drops().size() - 1; i >= 0; i--) {
            final List<RequesterFlow.Drop> drops = new ArrayList<>(f.drops());
            final RequesterFlow.Drop removed = drops.remove(i);
            drops.removeIf(d -> d.psn() == removed.psn() && d.copy() > removed.copy());
            out.add(new RequesterFlow(f.seed(), f.pmtu(), f.devicePsn(), f.messages(), drops, f.duplicates(),
                f.jitterNs(), f.latencyNs(), f.ackLossEvery()));
        }
        for (int i = f.duplicates().size() - 1; i >= 0; i--) {
            final List<Integer> duplicates = new ArrayList<>(f.duplicates());
            duplicates.remove(i);
            out.add(new RequesterFlow(f.seed(), f.pmtu(), f.devicePsn(), f.messages(), f.drops(), duplicates,
                f.jitterNs(), f.latencyNs(), f.ackLossEvery()));
        }
        for (int m = 0; m < f.messages().size(); m++) {
            final RequesterFlow.Message message = f.messages().get(m);
            if (message.span(f.pmtu()) > 1) {
                out.add(withLength(f, m, f.pmtu() * (message.span(f.pmtu()) / 2)));
            } else if (message.length() > 1) {
                out.add(withLength(f, m, message.length() / 2));
            }
        }
        return out;
    }

    /** The workload without message {@code removed}: later PSNs move down by its span, its losses go. */
    private static RequesterFlow withoutMessage(final RequesterFlow f, final int removed) {
        final List<RequesterFlow.Message> messages = new ArrayList<>(f.messages());
        final int first = firstPsn(f, removed);
        final int span = messages.remove(removed).span(f.pmtu());
        return new RequesterFlow(f.seed(), f.pmtu(), f.devicePsn(), messages, shiftDrops(f.drops(), first, span, span),
            shift(f.duplicates(), first, span, span), f.jitterNs(), f.latencyNs(), f.ackLossEvery());
    }

    private static RequesterFlow withLength(final RequesterFlow f, final int index, final int length) {
        final List<RequesterFlow.Message> messages = new ArrayList<>(f.messages());
        final RequesterFlow.Message old = messages.get(index);
        final RequesterFlow.Message shorter = new RequesterFlow.Message(old.op(), length, old.localOffset(),
            old.remoteOffset(), old.immediate());
        messages.set(index, shorter);
        final int first = firstPsn(f, index) + shorter.span(f.pmtu());
        final int removed = old.span(f.pmtu()) - shorter.span(f.pmtu());
        return new RequesterFlow(f.seed(), f.pmtu(), f.devicePsn(), messages, shiftDrops(f.drops(), first, removed,
            removed), shift(f.duplicates(), first, removed, removed), f.jitterNs(), f.latencyNs(), f.ackLossEvery());
    }

    private static int firstPsn(final RequesterFlow f, final int index) {
        int psn = 0;
        for (int m = 0; m < index; m++) {
            psn += f.messages().get(m).span(f.pmtu());
        }
        return psn;
    }

    /** PSNs in [from, from + gone) disappear, later ones move down by {@code by}. */
    private static List<RequesterFlow.Drop> shiftDrops(final List<RequesterFlow.Drop> drops, final int from,
                                                       final int gone, final int by) {
        final List<RequesterFlow.Drop> out = new ArrayList<>();
        for (final RequesterFlow.Drop d : drops) {
            if (d.psn() < from) {
                out.add(d);
            } else if (d.psn() >= from + gone) {
                out.add(new RequesterFlow.Drop(d.psn() - by, d.copy()));
            }
        }
        return out;
    }

    private static List<Integer> shift(final List<Integer> psns, final int from, final int gone, final int by) {
        final List<Integer> out = new ArrayList<>();
        for (final int psn : psns) {
            if (psn < from) {
                out.add(psn);
            } else if (psn >= from + gone) {
                out.add(psn - by);
            }
        }
        return out;
    }
}
