package org.metaroce.mrct.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.Opcode;

/**
 * MR-RTX-012 on a request sent long after an RNR wait of 10 µs ended: the report says when the wait began, measured
 * from the wait's own start (the UDP run's evidence showed "began -7427147641816970681 ns before": the first request
 * after a wait ends it, and the start was read after that). A resend at the wait's end stays quiet.
 */
class RnrWaitReportTest {
    private static final int PSN = 0x334B1E;
    private static final long START = 1_796_224_388_725_197_479L;

    @TempDir
    Path dir;

    /** A WRITE, an RNR NAK of timer code 1 (10 µs) 2 µs later, and the WRITE again {@code resendNs} after the NAK. */
    private Path rnr(final String name, final long resendNs) throws IOException {
        final FrameBuilder write = FrameBuilder.of(HandBuiltEvidence.FROM_DUT, Opcode.SEND_ONLY).psn(PSN)
            .ackReq(true).payload(new byte[64]).destQp(HandBuiltEvidence.HARNESS_QPN);
        final FrameBuilder nak = FrameBuilder.of(HandBuiltEvidence.TO_DUT, Opcode.ACKNOWLEDGE).psn(PSN)
            .with("aeth.syndrome", 0x21).with("aeth.msn", 0).with("sacketh.base", PSN)
            .destQp(HandBuiltEvidence.DUT_QPN);
        return Captures.write(dir.resolve(name + ".pcap"), List.of(new Captures.Record(START, write.build()),
            new Captures.Record(START + 2_000, nak.build()),
            new Captures.Record(START + 2_000 + resendNs, write.build())));
    }

    @Test
    void aLateRequestAfterAnRnrWaitIsReportedWithTheTimeSinceTheWaitBegan() throws IOException {
        final Analyses.Result late = Analyses.run(rnr("late", 300_000),
            Analyses.referenceProfile().withComplete(true));
        final CaseResult wait = late.only("MR-RTX-012");
        assertThat(wait.verdict()).as(late.describe()).isEqualTo(Verdict.FAIL);
        assertThat(wait.reason()).contains("is sent at odds with the RNR wait that began 300.0 µs before")
            .doesNotContain("began -");
        final Analyses.Result onTime = Analyses.run(rnr("on-time", 10_500),
            Analyses.referenceProfile().withComplete(true));
        assertThat(onTime.only("MR-RTX-012").verdict()).as(onTime.describe()).isEqualTo(Verdict.PASS);
    }
}
