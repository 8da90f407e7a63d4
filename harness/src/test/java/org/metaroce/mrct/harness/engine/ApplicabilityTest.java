package org.metaroce.mrct.harness.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.cases.CaseLoader;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.harness.yaml.YamlProblem;
import org.metaroce.mrct.spi.Capability;

/** The capabilities a case's steps imply, beyond those it declares. */
class ApplicabilityTest {
    private static final String HEAD = "id: WIRE-005-x\ntitle: t\nrules: [MR-WIRE-005]\nsetup:\n  connections:\n"
        + "    - {name: q%s}\n  regions:\n    - {name: m, length: 4096, access: [remote_write]}\nsteps:\n";

    private final CaseLoader loader = new CaseLoader(Specification.bundled());

    private CaseDef parse(final String connection, final String send) {
        final List<YamlProblem> problems = new ArrayList<>();
        final CaseDef def = loader.parse("wire/x.yaml", "WIRE", HEAD.formatted(connection) + "  - send: {opcode: "
            + "RDMA_WRITE_ONLY, psn: 0, msn: 0, mr: m, payload: {seq: 1, length: 8}" + send + "}\n", problems);
        assertThat(problems).isEmpty();
        return def;
    }

    @Test
    void aPlainFrameNeedsNoControlOfLowerHeaders() {
        assertThat(Applicability.needed(parse("", ""))).doesNotContain(Capability.L2_CONTROL, Capability.ECN_WRITE);
        assertThat(Applicability.needed(parse("", ", fields: {bth.se: 1, udp.sport: 50000}")))
            .as("BTH fields and the source port travel in any data plane").doesNotContain(Capability.L2_CONTROL);
    }

    @Test
    void framesThatShapeLowerHeadersNeedL2Control() {
        assertThat(Applicability.needed(parse("", ", ip_options: \"94 04 00 00\""))).contains(Capability.L2_CONTROL);
        assertThat(Applicability.needed(parse("", ", fields: {ip.checksum: 0xFFFF}"))).contains(Capability.L2_CONTROL);
        assertThat(Applicability.needed(parse("", ", fields: {udp.dport: 4792}"))).contains(Capability.L2_CONTROL);
        assertThat(Applicability.needed(parse("", ", vlan: 5"))).contains(Capability.L2_CONTROL);
        assertThat(Applicability.needed(parse(", vlan: 7", ""))).as("a tagged connection")
            .contains(Capability.L2_CONTROL);
    }

    @Test
    void ceMarksNeedEcnWrite() {
        assertThat(Applicability.needed(parse("", ", ecn: 3"))).contains(Capability.ECN_WRITE);
    }

    @Test
    void stepsInsideARepeatImplyTheirCapabilitiesToo() {
        final List<YamlProblem> problems = new ArrayList<>();
        final CaseDef def = loader.parse("wire/x.yaml", "WIRE", HEAD.formatted("") + "  - repeat:\n      var: k\n"
            + "      from: 0\n      to: 1\n      steps:\n        - expect_memory: {mr: m, offset: 0, length: 8, "
            + "equals: {seq: 1}}\n        - advance: 1000\n", problems);
        assertThat(problems).isEmpty();
        assertThat(Applicability.needed(def)).containsExactly(Capability.MEMORY_READBACK);
    }

    private CaseDef requester(final String connection, final String steps) {
        final List<YamlProblem> problems = new ArrayList<>();
        final CaseDef def = loader.parse("req/x.yaml", "REQ", "id: REQ-005-x\ntitle: t\nrules: [MR-REQ-005]\n"
            + "role: requester\nsetup:\n  connections:\n    - {name: q" + connection + "}\n  regions:\n"
            + "    - {name: m, length: 4096, access: [local_write]}\nsteps:\n"
            + "  - post_send: {qp: q, op: write, mr: m, length: 64, remote_va: 0x1000, rkey: 7}\n" + steps, problems);
        assertThat(problems).isEmpty();
        return def;
    }

    @Test
    void requesterCasesJudgePacingOnlyWithRatesGapsOrASwitchQueue() {
        assertThat(Applicability.judgesPacing(requester("", "  - expect: {qp: q, opcode: RDMA_WRITE_ONLY}\n")))
            .as("frames, answers and completions are judged on real time with the timers scaled").isFalse();
        assertThat(Applicability.judgesPacing(requester("", "  - expect_rate: {qp: q, model: true}\n"))).isTrue();
        assertThat(Applicability.judgesPacing(requester("", "  - repeat: {var: k, from: 0, to: 1, steps: "
            + "[{expect_traffic: {qp: q, min_gap: 100}}]}\n"))).as("inside a repeat").isTrue();
        assertThat(Applicability.judgesPacing(requester("", "  - expect_traffic: {qp: q, first_transmissions: 1}\n")))
            .isFalse();
    }

    @Test
    void aSprayingQpNeedsL2ControlForItsSourcePorts() {
        assertThat(Applicability.needed(requester(", attrs: {spray: true}", ""))).contains(Capability.L2_CONTROL);
        assertThat(Applicability.needed(requester("", ""))).doesNotContain(Capability.L2_CONTROL);
        assertThat(Applicability.needed(requester("", "  - expect_traffic: {qp: q, sports: 2}\n")))
            .contains(Capability.L2_CONTROL);
    }
}
