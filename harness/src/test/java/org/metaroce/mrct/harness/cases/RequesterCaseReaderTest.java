package org.metaroce.mrct.harness.cases;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.harness.yaml.YamlProblem;

/** The requester-case syntax: peer connections and regions, post_send, network rules, traffic and rate expectations. */
class RequesterCaseReaderTest {
    private static final String HEAD = "id: RTX-003-x\ntitle: t\nrules: [MR-RTX-003]\nrole: requester\n";
    private static final String SETUP = "setup:\n  connections:\n    - {name: q, peer: true, attrs: {pmtu: 512}, "
        + "peer_attrs: {recv_window: 256}}\n  regions:\n    - {name: src, length: 4096, access: [local_write]}\n"
        + "    - {name: dst, on: peer, length: 4096, access: [remote_write]}\n";

    private final CaseLoader loader = new CaseLoader(Specification.bundled());

    private CaseDef parse(final String steps, final List<YamlProblem> problems) {
        return loader.parse("rtx/x.yaml", "RTX", HEAD + SETUP + "steps:\n" + steps, problems);
    }

    @Test
    void aPeerCaseReadsWithItsNetworkRulesAndExpectations() {
        final List<YamlProblem> problems = new ArrayList<>();
        final CaseDef def = parse("""
              - network:
                  latency: 2us
                  jitter: 500ns
                  drop: [3, {psn: [5, 6], copy: 2}, {every: 8, copy: 1}]
                  delay: [{psn: 1, by: 30us}]
                  drop_to_device: [{opcode: ACKNOWLEDGE, every: 3}]
                  switch: {rate_mbps: 50000, kmin: 5000, kmax: 200000, pmax_pct: 20, background: [{mbps: 40000, to: 1ms}]}
              - post_send: {qp: q, op: write, mr: src, length: 1024, remote_mr: dst, count: 2, stride: 2048}
              - advance: 1ms
              - expect_traffic: {qp: q, retransmitted: [3, {psn: 5, times: 2}], max_in_flight: {range: [1, 64]}}
              - expect_rate: {qp: q, from: 100us, model: true}
            """, problems);
        assertThat(problems).isEmpty();
        assertThat(def.connections().get(0).peer()).isTrue();
        assertThat(def.connections().get(0).peerAttributes())
            .containsKey(org.metaroce.mrct.spi.QpAttribute.RECV_WINDOW);
        assertThat(def.regions().get(1).onPeer()).isTrue();
        final NetworkSpec network = ((Step.Network) def.steps().get(0)).network();
        assertThat(network.drop()).hasSize(3);
        assertThat(network.drop().get(0).copy()).as("a bare PSN is its first transmission").isEqualTo(1);
        assertThat(network.drop().get(1).psns()).hasSize(2);
        assertThat(network.drop().get(2).copy()).isEqualTo(1);
        assertThat(network.switchPort().background()).hasSize(1);
        final Step.PostSend post = (Step.PostSend) def.steps().get(1);
        assertThat(post.count()).isNotNull();
        final TrafficExpectation traffic = ((Step.ExpectTraffic) def.steps().get(3)).traffic();
        assertThat(traffic.exactly()).isTrue();
        assertThat(traffic.retransmitted()).hasSize(2);
        assertThat(((Step.ExpectRate) def.steps().get(4)).rate().model()).isTrue();
    }

    @Test
    void aRatioAttributeTakesADecimalFromZeroToOne() {
        final String head = HEAD + "setup:\n  connections:\n    - {name: q, peer: true, attrs: {dcqcn_g: 0.00390625, "
            + "dcqcn_alpha_init: 1}}\n";
        final List<YamlProblem> problems = new ArrayList<>();
        final CaseDef def = loader.parse("rtx/x.yaml", "RTX", head + "steps:\n  - advance: 1us\n", problems);
        assertThat(problems).isEmpty();
        assertThat(def.connections().get(0).attributes().get(org.metaroce.mrct.spi.QpAttribute.DCQCN_G))
            .isEqualTo(new AttributeValue.Ratio(1.0 / 256));
        assertThat(def.connections().get(0).attributes().get(org.metaroce.mrct.spi.QpAttribute.DCQCN_ALPHA_INIT))
            .isInstanceOf(AttributeValue.Numeric.class);

        final List<YamlProblem> wrong = new ArrayList<>();
        loader.parse("rtx/x.yaml", "RTX", head.replace("0.00390625", "1.5") + "steps:\n  - advance: 1us\n", wrong);
        assertThat(wrong).extracting(YamlProblem::message)
            .anySatisfy(m -> assertThat(m).contains("dcqcn_g: 1.5 is not a ratio from 0 to 1"));
    }

    @Test
    void mistakesAreReportedWithTheirLines() {
        final List<YamlProblem> problems = new ArrayList<>();
        parse("""
              - network: {delay: [{psn: 1}], drop: [{qp: q}]}
              - post_send: {qp: q, op: write, mr: src, length: 64}
              - post_send: {qp: q, op: send_inv, mr: src, length: 64}
              - expect_rate: {qp: q}
              - send: {qp: q, ack: {psn: 1}, opcode: SEND_ONLY}
            """, problems);
        assertThat(problems).extracting(YamlProblem::message).anySatisfy(m -> assertThat(m).contains("needs by"))
            .anySatisfy(m -> assertThat(m).contains("selects frames by"))
            .anySatisfy(m -> assertThat(m).contains("write needs a remote buffer"))
            .anySatisfy(m -> assertThat(m).contains("send_inv needs invalidate"))
            .anySatisfy(m -> assertThat(m).contains("expect_rate needs"))
            .anySatisfy(m -> assertThat(m).contains("either opcode or one of ack"));
        assertThat(problems).allSatisfy(p -> assertThat(p.line()).isGreaterThan(9));
    }

    @Test
    void theAckShorthandOfASendStepSetsTheAcknowledgementFields() {
        final List<YamlProblem> problems = new ArrayList<>();
        final CaseDef def = parse("  - send: {qp: q, ack: {psn: 4, msn: 1, sack: [6, 7]}}\n"
            + "  - send: {qp: q, rnr_nak: {psn: 2, timer: 0x0E}}\n  - send: {qp: q, cnp: true}\n", problems);
        assertThat(problems).isEmpty();
        final PacketSpec ack = ((Step.Send) def.steps().get(0)).packet();
        assertThat(ack.opcode()).isEqualTo(org.metaroce.mrct.wire.Opcode.ACKNOWLEDGE);
        assertThat(ack.fields()).containsKeys("bth.psn", "aeth.syndrome", "aeth.msn", "sacketh.base",
            "sacketh.bitmap");
        assertThat(ack.fields().get("bth.psn").eval(n -> null)).isEqualTo(3);
        assertThat(ack.fields().get("sacketh.bitmap").eval(n -> null)).isEqualTo((Long.MIN_VALUE >>> 2)
            | (Long.MIN_VALUE >>> 3));
        final PacketSpec rnr = ((Step.Send) def.steps().get(1)).packet();
        assertThat(rnr.fields().get("aeth.syndrome").eval(n -> null)).isEqualTo(0x2E);
        assertThat(((Step.Send) def.steps().get(2)).packet().opcode()).isEqualTo(org.metaroce.mrct.wire.Opcode.CNP);
    }
}
