package org.metaroce.mrct.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.Opcode;

/**
 * Two ends that share an IP address, as the harness and a device on one host over UDP do (both 127.0.0.1, their MACs
 * differ), each with a QP of the same number: the addresses and the destination QP cannot tell the two directions
 * apart, the MACs do. A legacy requester sends WRITEs, takes a NAK 0x60 and goes back; the analysis must see the NAK
 * (the connection's two directions paired), as it does when the same frames go between two addresses. Issue 8: the
 * UDP requester run's evidence was read as one direction, and every go-back looked like a resend nothing asked for
 * (MR-LEG-009).
 */
class SharedAddressTest {
    private static final int QPN = 0x000100;
    private static final int PSN = 0x35DBF7;
    private static final long REQUESTER_MAC = 0x02_00_00_00_00_0DL;
    private static final long RESPONDER_MAC = 0x02_00_00_00_00_0AL;

    @TempDir
    Path dir;

    /**
     * The requester sends WRITEs on PSN + 0 to 3, takes a NAK 0x60 for PSN + 1, sends PSN + 1 to 3 again and is
     * acknowledged; its frames go from {@code requester} to {@code responder}'s QP {@code responderQp}, the
     * answers the other way to its QP {@code requesterQp}.
     */
    private Path goBack(final String name, final Encapsulation requester, final Encapsulation responder,
                        final int requesterQp, final int responderQp) throws IOException {
        final List<Captures.Record> records = new ArrayList<>();
        final long start = 1_796_224_417_000_000_000L;
        final int[] sent = {0, 1, 2, 3, -1, 1, 2, 3, -2};
        for (int i = 0; i < sent.length; i++) {
            final FrameBuilder frame;
            if (sent[i] >= 0) {
                frame = FrameBuilder.of(requester, Opcode.RDMA_WRITE_ONLY).tver(0).psn(PSN + sent[i]).ackReq(true)
                    .with("reth.va", 0x1_0000L).with("reth.rkey", 0x1234).with("reth.dmalen", 64)
                    .payload(new byte[64]).destQp(responderQp);
            } else {
                final boolean nak = sent[i] == -1;
                frame = FrameBuilder.of(responder, Opcode.ACKNOWLEDGE).tver(0).psn(PSN + (nak ? 1 : 3))
                    .with("aeth.syndrome", nak ? 0x60 : 0x1F).with("aeth.msn", nak ? 1 : 4).destQp(requesterQp);
            }
            records.add(new Captures.Record(start + i * 2_000L, frame.build()));
        }
        return Captures.write(dir.resolve(name + ".pcap"), records);
    }

    private static Encapsulation end(final String from, final String to, final long mac, final long peerMac,
                                     final int port) {
        return Encapsulation.ipv4(from, to).withMacs(mac, peerMac).withUdpSourcePort(port);
    }

    private static Analyses.Result analyse(final Path capture) {
        return Analyses.run(capture, Analyses.referenceProfile().withComplete(true));
    }

    private static CaseResult summary(final Analyses.Result result) {
        final List<CaseResult> summaries = result.cases().stream().filter(c -> c.rules().isEmpty()).toList();
        assertThat(summaries).as(result.describe()).hasSize(1);
        return summaries.get(0);
    }

    /** Each check's verdict by rule. */
    private static Map<String, Verdict> verdicts(final Analyses.Result result) {
        final Map<String, Verdict> verdicts = new TreeMap<>();
        for (final CaseResult c : result.checks()) {
            verdicts.put(String.join(",", c.rules()), c.verdict());
        }
        return verdicts;
    }

    @Test
    void theMacsPairTheTwoDirectionsWhenBothEndsShareAnAddressAndAQpNumber() throws IOException {
        final Analyses.Result shared = analyse(goBack("shared",
            end("127.0.0.1", "127.0.0.1", REQUESTER_MAC, RESPONDER_MAC, 64890),
            end("127.0.0.1", "127.0.0.1", RESPONDER_MAC, REQUESTER_MAC, 49408), QPN, QPN));
        assertThat(summary(shared).reason()).startsWith("9 frames in 2 directions");
        assertThat(summary(shared).title()).contains("127.0.0.1 (02:00:00:00:00:0d) qp 0x000100 <-> "
            + "127.0.0.1 (02:00:00:00:00:0a) qp 0x000100");
        assertThat(shared.with(Verdict.FAIL)).as(shared.describe()).isEmpty();
        assertThat(shared.only("MR-LEG-008").verdict()).isEqualTo(Verdict.PASS);
        assertThat(shared.only("MR-LEG-008").reason()).startsWith("1 NAK 0x60 recoveries checked");
        // the same frames between two addresses: the same checks, the same verdicts
        final Analyses.Result apart = analyse(goBack("apart",
            end("198.51.100.2", "198.51.100.1", REQUESTER_MAC, RESPONDER_MAC, 64890),
            end("198.51.100.1", "198.51.100.2", RESPONDER_MAC, REQUESTER_MAC, 49408), QPN, QPN));
        assertThat(verdicts(shared)).isEqualTo(verdicts(apart));
    }

    @Test
    void endsSharingAnAddressAndAMacArePairedByTheirQpNumbersAsBefore() throws IOException {
        // loopback (a soft RoCE device talking to itself): the MACs are the same, the QP numbers differ
        final Analyses.Result loopback = analyse(goBack("loopback",
            end("127.0.0.1", "127.0.0.1", 0, 0, 64890), end("127.0.0.1", "127.0.0.1", 0, 0, 49408), 0x11, 0x12));
        assertThat(summary(loopback).reason()).startsWith("9 frames in 2 directions");
        assertThat(summary(loopback).title()).contains("127.0.0.1 qp 0x000011 <-> 127.0.0.1 qp 0x000012");
        assertThat(loopback.with(Verdict.FAIL)).as(loopback.describe()).isEmpty();
        // and with one QP number as well, nothing tells the ends apart: one direction (what every frame was before)
        final Analyses.Result same = analyse(goBack("same",
            end("127.0.0.1", "127.0.0.1", 0, 0, 64890), end("127.0.0.1", "127.0.0.1", 0, 0, 49408), QPN, QPN));
        assertThat(summary(same).reason()).startsWith("9 frames in 1 direction");
    }
}
