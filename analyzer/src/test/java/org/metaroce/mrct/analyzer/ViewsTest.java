package org.metaroce.mrct.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.testing.Fixtures;

/**
 * Several captures matched: one soft-RoCE capture split into the two hosts' views (each host sees its own frames when
 * it sends them and the other's 5 us later), with frames dropped on purpose. A frame dropped from the receiver's view
 * only is lost in the network (named with the sender's capture, frame and PSN); a frame dropped from the sender's
 * view only was received without being seen sent; nothing else is reported, and the one-way latency is the shift.
 */
class ViewsTest {
    private static final Path WRITE = Fixtures.fixtures().resolve("captures/soft-roce/rdma_write_bw.pcap");
    private static final long LATENCY_NS = 5_000;

    @TempDir
    Path dir;

    /** A record of a view, with the number it had in the original capture. */
    private record Seen(int original, Captures.Record record) {
    }

    private static String source(final byte[] frame) {
        return (frame[26] & 0xFF) + "." + (frame[27] & 0xFF) + "." + (frame[28] & 0xFF) + "." + (frame[29] & 0xFF);
    }

    /**
     * The view of {@code host}: every frame of the original, those {@code host} sent at their time, the others
     * {@link #LATENCY_NS} later, without {@code dropped} (original numbers); sorted by time.
     */
    private static List<Seen> view(final List<Captures.Record> records, final String host, final Set<Integer> dropped) {
        final List<Seen> out = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            final int number = i + 1;
            if (dropped.contains(number)) {
                continue;
            }
            final Captures.Record r = records.get(i);
            out.add(new Seen(number, source(r.bytes()).equals(host) ? r : r.at(r.tsNs() + LATENCY_NS)));
        }
        out.sort(Comparator.comparingLong(s -> s.record().tsNs()));
        return out;
    }

    private static int numberIn(final List<Seen> view, final int original) {
        for (int i = 0; i < view.size(); i++) {
            if (view.get(i).original() == original) {
                return i + 1;
            }
        }
        throw new AssertionError("frame " + original + " is not in the view");
    }

    private static Path write(final Path file, final List<Seen> view) throws IOException {
        return Captures.write(file, view.stream().map(Seen::record).toList());
    }

    @Test
    void aFrameDroppedBetweenTheTwoEndsIsLostAndOneTheSenderNeverShowedIsNotSent() throws IOException {
        final List<Captures.Record> records = Captures.read(WRITE);
        final List<Integer> roce = Captures.roce(records);
        final String sender = source(records.get(roce.get(0) - 1).bytes());
        final String receiver = source(records.get(roce.stream().filter(n -> !source(records.get(n - 1).bytes())
            .equals(sender)).findFirst().orElseThrow() - 1).bytes());
        final List<Integer> requests = roce.stream().filter(n -> source(records.get(n - 1).bytes()).equals(sender))
            .toList();
        assertThat(requests).hasSizeGreaterThan(8);
        final int lost1 = requests.get(3);
        final int lost2 = requests.get(5);
        final int unseen = requests.get(7);
        final List<Seen> atSender = view(records, sender, Set.of(unseen));
        final List<Seen> atReceiver = view(records, receiver, Set.of(lost1, lost2));
        final Path a = write(dir.resolve("a-sender.pcap"), atSender);
        final Path b = write(dir.resolve("b-receiver.pcap"), atReceiver);

        final List<CaseResult> cases = new ArrayList<>();
        final Outcome outcome = new CaptureAnalyzer(Analyses.SPEC, CaptureAnalyzer.Options.defaults())
            .analyze(List.of(a, b), List.of("a-sender.pcap", "b-receiver.pcap"), new RunListener() {
                @Override
                public void caseFinished(final CaseResult result) {
                    cases.add(result);
                }
            });

        final List<ViewFinding> lost = outcome.views().stream().filter(v -> v.kind() == ViewFinding.Kind.LOST)
            .toList();
        final List<ViewFinding> notSent = outcome.views().stream()
            .filter(v -> v.kind() == ViewFinding.Kind.NOT_SENT).toList();
        assertThat(lost).as(outcome.views().toString()).hasSize(2);
        assertThat(lost).extracting(ViewFinding::frame).containsExactly((long) numberIn(atSender, lost1),
            (long) numberIn(atSender, lost2));
        assertThat(lost).extracting(ViewFinding::psn).containsExactly(Captures.psn(records.get(lost1 - 1).bytes()),
            Captures.psn(records.get(lost2 - 1).bytes()));
        assertThat(lost).allSatisfy(v -> {
            assertThat(v.seenIn()).isEqualTo("a-sender.pcap");
            assertThat(v.missingIn()).isEqualTo("b-receiver.pcap");
            assertThat(v.flow()).startsWith(sender + " -> " + receiver);
        });
        assertThat(notSent).hasSize(1);
        assertThat(notSent.get(0).seenIn()).isEqualTo("b-receiver.pcap");
        assertThat(notSent.get(0).missingIn()).isEqualTo("a-sender.pcap");
        assertThat(notSent.get(0).frame()).isEqualTo(numberIn(atReceiver, unseen));
        assertThat(notSent.get(0).psn()).isEqualTo(Captures.psn(records.get(unseen - 1).bytes()));

        final List<CaseResult> views = cases.stream().filter(c -> c.id().startsWith("views/")).toList();
        assertThat(views).extracting(CaseResult::verdict).contains(Verdict.WARN);
        final CaseResult forward = views.stream().filter(c -> c.title().startsWith(sender + " -> ")).findFirst()
            .orElseThrow();
        assertThat(forward.verdict()).isEqualTo(Verdict.WARN);
        assertThat(forward.reason()).contains("2 lost in the network", "1 received that a-sender.pcap never saw sent",
            "one-way latency a-sender.pcap -> b-receiver.pcap mean 5000 ns");
        final CaseResult backward = views.stream().filter(c -> c.title().startsWith(receiver + " -> ")).findFirst()
            .orElseThrow();
        assertThat(backward.verdict()).as(backward.reason()).isEqualTo(Verdict.PASS);
        assertThat(backward.reason()).contains("one-way latency b-receiver.pcap -> a-sender.pcap mean 5000 ns");
        assertThat(forward.notes()).anyMatch(n -> n.contains("the one-way latency is 5000 ns")
            && n.contains("0 ns ahead"));
        // the per-capture analyses are there as well, prefixed by their file names
        assertThat(cases).anyMatch(c -> c.id().startsWith("a-sender.pcap/C1/"));
        assertThat(cases).anyMatch(c -> c.id().startsWith("b-receiver.pcap/C1/"));
        // a network loss is not a device's violation
        assertThat(outcome.violated()).isFalse();
    }

    @Test
    void identicalViewsMatchWholly() throws IOException {
        final List<Captures.Record> records = Captures.read(WRITE);
        final Path a = Captures.write(dir.resolve("one.pcap"), records);
        final Path b = Captures.write(dir.resolve("two.pcap"), records);
        final Outcome outcome = new CaptureAnalyzer(Analyses.SPEC, CaptureAnalyzer.Options.defaults())
            .analyze(List.of(a, b), new RunListener() { });
        assertThat(outcome.views()).isEmpty();
    }

    @Test
    void withoutAMatchWindowCapturesAreAnalysedApart() throws IOException {
        final List<Captures.Record> records = Captures.read(WRITE);
        final Path a = Captures.write(dir.resolve("one.pcap"), records);
        final Path b = Captures.write(dir.resolve("two.pcap"), records.subList(0, records.size() / 2));
        final List<String> ids = new ArrayList<>();
        new CaptureAnalyzer(Analyses.SPEC, CaptureAnalyzer.Options.defaults().withMatchWindowNs(0))
            .analyze(List.of(a, b), new RunListener() {
                @Override
                public void caseFinished(final CaseResult result) {
                    ids.add(result.id());
                }
            });
        assertThat(ids).noneMatch(id -> id.startsWith("views/"));
        assertThat(Arrays.asList(ids.get(0).split("/"))).first().isEqualTo("one.pcap");
    }
}
