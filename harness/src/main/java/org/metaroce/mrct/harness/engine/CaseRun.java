package org.metaroce.mrct.harness.engine;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.metaroce.mrct.harness.cases.AttributeValue;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.cases.CompletionTemplate;
import org.metaroce.mrct.harness.cases.ConnectionDef;
import org.metaroce.mrct.harness.cases.Expr;
import org.metaroce.mrct.harness.cases.FrameTemplate;
import org.metaroce.mrct.harness.cases.IpVersion;
import org.metaroce.mrct.harness.cases.RegionDef;
import org.metaroce.mrct.harness.cases.Step;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Direction;
import org.metaroce.mrct.harness.result.Failure;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Parameter;
import org.metaroce.mrct.harness.spec.Role;
import org.metaroce.mrct.harness.spec.Rule;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.AdapterException;
import org.metaroce.mrct.spi.CapturedFrame;
import org.metaroce.mrct.spi.Completion;
import org.metaroce.mrct.spi.CompletionStatus;
import org.metaroce.mrct.spi.DataPlane;
import org.metaroce.mrct.spi.Endpoints;
import org.metaroce.mrct.spi.EvidenceUnavailableException;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.MemoryRegion;
import org.metaroce.mrct.spi.Peer;
import org.metaroce.mrct.spi.QpAttribute;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.spi.ReceiveWqe;
import org.metaroce.mrct.spi.RejectedException;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.Psn;

/**
 * Runs one case (one row of its parameter table) against the adapter and turns what happened into a
 * {@link CaseResult}. Steps run in order; the first failed expectation ends the case. Frames from the device wait in an
 * inbox until an expectation consumes them; frames nobody expected fail an exhaustive case at its end.
 */
final class CaseRun {
    /** A received frame not yet consumed. */
    private record Received(CapturedFrame frame, DecodedFrame decoded, int evidence) {
    }

    private static final Set<QpAttribute> PROFILE_ATTRIBUTES = EnumSet.of(QpAttribute.PMTU, QpAttribute.RECV_WINDOW,
        QpAttribute.SEND_WINDOW, QpAttribute.ACK_REQ_INTERVAL, QpAttribute.RTO_LOW_NS, QpAttribute.RTO_HIGH_NS,
        QpAttribute.N_LOW, QpAttribute.REORDER_THRESHOLD, QpAttribute.REORDER_TIME_NS, QpAttribute.RETRY_CNT,
        QpAttribute.RNR_RETRY, QpAttribute.MIN_RNR_TIMER, QpAttribute.MAX_RD_ATOMIC, QpAttribute.MAX_DEST_RD_ATOMIC,
        QpAttribute.LINE_RATE_MBPS, QpAttribute.DCQCN_ALPHA_TIMER_NS, QpAttribute.DCQCN_RATE_TIMER_NS,
        QpAttribute.DCQCN_BYTE_COUNTER, QpAttribute.DCQCN_F, QpAttribute.DCQCN_RAI_MBPS, QpAttribute.DCQCN_RHAI_MBPS,
        QpAttribute.DCQCN_MIN_RATE_MBPS);

    private final RunContext run;
    private final CaseDef def;
    private final Map<String, Expr> row;
    private final String id;
    private final long caseSeed;
    private final DataPlane data;
    private final ControlJournal control;
    private final Endpoints endpoints;
    private final FrameDecoder decoder = new FrameDecoder();
    private final Map<String, Long> values = new HashMap<>();
    private final Deque<Map<String, Long>> loops = new ArrayDeque<>();
    private final Map<String, Connection> connections = new LinkedHashMap<>();
    private final Map<String, Region> regions = new LinkedHashMap<>();
    private final Map<String, byte[]> addresses = new HashMap<>();
    private final Map<Integer, Connection> byPeerQpn = new HashMap<>();
    private final Map<Connection, Integer> highestBase = new HashMap<>();
    private final ArrayDeque<Received> inbox = new ArrayDeque<>();
    private final List<String> notes = new ArrayList<>();
    private final Traffic traffic;
    private final Function<String, Long> names = this::name;
    private Map<String, Long> countersAtStart = Map.of();
    private QpAttributes profileAttributes;
    private final Map<Boolean, Encapsulation> baseEncapsulations = new HashMap<>();
    private final Map<String, Expr> indexExpressions = new HashMap<>();
    private Evidence evidence;
    /** Requester cases: the harness's peer, the network to it, and the requester steps. */
    private Peer peer;
    private Network network;
    private RequesterSteps requesterSteps;
    private final Map<Integer, Connection> byDeviceQpn = new HashMap<>();
    private long start;
    private long lastTime;
    private int stepIndex = -1;
    private Step currentStep;

    CaseRun(final RunContext run, final CaseDef def, final Map<String, Expr> row, final String id) {
        this.run = run;
        this.def = def;
        this.row = row;
        this.id = id;
        this.caseSeed = run.seed() ^ (id.hashCode() * 0x9E3779B97F4A7C15L);
        this.data = run.adapter().dataPlane();
        this.control = new ControlJournal(run.adapter().controlPlane(), run.adapter().dataPlane(),
            run.adapter().dataPlane().now(), () -> evidence == null ? 0 : evidence.records().size());
        this.endpoints = run.adapter().endpoints();
        this.traffic = new Traffic(caseSeed);
    }

    CaseResult execute() {
        final long wallStart = System.nanoTime();
        Verdict verdict = Verdict.PASS;
        String reason = "every expectation held";
        Failure failure = null;
        start = data.now();
        evidence = new Evidence(start);
        try {
            run.adapter().beginCase(id);
            control.reset();
            start = data.now();
            lastTime = start;
            evidence = new Evidence(start);
            bindParameters();
            requesterSteps = new RequesterSteps(control, values, names, start, run.toleranceNs(),
                run.profile().effectiveParameters(run.spec()));
            openPeer();
            if (run.adapter().capabilities().contains(org.metaroce.mrct.spi.Capability.COUNTERS)) {
                countersAtStart = control.counters();
            }
            setUp();
            for (final Step step : def.setupSteps()) {
                execute(step);
            }
            runSteps(def.steps());
            stepIndex = -1;
            currentStep = null;
            finish();
        } catch (StepFailure e) {
            // a per-frame check may find a MUST rule broken inside a case about a SHOULD: that is a FAIL
            final Rule broken = e.rule == null ? null : run.spec().rule(e.rule);
            final Level level = broken != null && broken.level().ordinal() < strongestLevel().ordinal()
                ? broken.level() : strongestLevel();
            verdict = e.inconclusive ? Verdict.INCONCLUSIVE
                : level == Level.MUST || run.strict() ? Verdict.FAIL : Verdict.WARN;
            final String rule = e.rule != null ? e.rule : def.rules().isEmpty() ? "" : def.rules().get(0);
            final String where = currentStep == null ? "after the last step"
                : "step " + (stepIndex + 1) + " (" + currentStep.describe() + ", line " + currentStep.line() + ")";
            reason = rule + ": " + where + ": " + e.getMessage();
            failure = new Failure(rule, stepIndex, currentStep == null ? "" : currentStep.describe(),
                currentStep == null ? 0 : currentStep.line(), e.frame, e.diffs, e.expectedFrame, e.actualFrame,
                reason);
        } catch (EvidenceUnavailableException e) {
            verdict = Verdict.INCONCLUSIVE;
            reason = e.getMessage();
        } catch (AdapterException e) {
            verdict = Verdict.ERROR;
            reason = "adapter: " + e.getMessage();
        } catch (UnsupportedOperationException e) {
            // an operation the adapter cannot do, found only when the case asks for it (a UDP data plane cannot send
            // a frame with IPv4 options): like a missing capability, it says nothing about the device
            verdict = Verdict.NOT_APPLICABLE;
            reason = "the adapter cannot do what " + (currentStep == null ? "the case's setup" : "step "
                + (stepIndex + 1) + " (line " + currentStep.line() + ")") + " needs: " + e.getMessage();
        } catch (RejectedException e) {
            verdict = Verdict.ERROR;
            reason = "the device rejected a control-plane call the case needs: " + e.getMessage();
        } catch (RuntimeException e) {
            verdict = Verdict.ERROR;
            reason = "harness: " + (currentStep != null ? "step " + (stepIndex + 1) + " (line " + currentStep.line()
                + "): " : "") + e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        Map<String, List<double[]>> series = Map.of();
        try {
            if (requesterSteps != null) {
                series = requesterSteps.series(connections, network, data.now());
            }
        } catch (RuntimeException e) {
            notes.add("no rate series: " + e.getMessage());
        }
        if (peer != null) {
            peer.close();
        }
        final long deviceNanos = data.now() - start;
        final Map<String, Object> parameters = new LinkedHashMap<>();
        for (final Map.Entry<String, Expr> entry : row.entrySet()) {
            // a case stopped before its parameters were bound (the adapter refused it) shows the row as written
            final Object value = values.get(entry.getKey());
            parameters.put(entry.getKey(), value != null ? value : entry.getValue().toString());
        }
        Level level = strongestLevel();
        final Rule failed = failure == null ? null : run.spec().rule(failure.rule());
        if (failed != null && failed.level().ordinal() < level.ordinal()) {
            level = failed.level();
        }
        return new CaseResult(id, def.id(), def.title(), def.area(), def.rules(), level, def.role(), def.file(),
            parameters, verdict, reason, failure, System.nanoTime() - wallStart, deviceNanos, 1, evidence.records(),
            notes, series, control.records());
    }

    /** Creates the peer and the network when the case has a connection whose harness end is a peer device. */
    private void openPeer() {
        if (def.connections().stream().noneMatch(ConnectionDef::peer)) {
            return;
        }
        final Set<String> pics = new java.util.LinkedHashSet<>();
        run.spec().picsItems().forEach(item -> pics.add(item.name()));
        peer = run.peers().create(endpoints, run.profile().effectiveParameters(run.spec()), pics);
        peer.reset(data.now());
        network = new Network(peer, start, caseSeed);
    }

    private Level strongestLevel() {
        Level best = Level.MAY;
        for (final String ruleId : def.rules()) {
            final Rule rule = run.spec().rule(ruleId);
            if (rule != null && rule.level().ordinal() < best.ordinal()) {
                best = rule.level();
            }
        }
        return best;
    }

    // ---------------------------------------------------------------- names

    private Long name(final String name) {
        for (final Map<String, Long> scope : loops) {
            final Long value = scope.get(name);
            if (value != null) {
                return value;
            }
        }
        return values.get(name);
    }

    private long eval(final Expr expr) {
        return expr.eval(names);
    }

    private void bindParameters() {
        values.putAll(run.profile().numericParameters(run.spec()));
        values.putAll(enumerationIndices(run.profile(), run.spec()));
        values.put("seed", caseSeed);
        for (final Map.Entry<String, Expr> entry : def.params().entrySet()) {
            values.put(entry.getKey(), eval(entry.getValue()));
        }
        for (final Map.Entry<String, Expr> entry : row.entrySet()) {
            values.put(entry.getKey(), eval(entry.getValue()));
        }
    }

    /**
     * Enumerated parameters (cnp_scope, atomic_memory_order) are names too: the index of the declared word in the
     * parameter's list in Appendix B (per-qp 0, per-destination 1, per-port 2; little-endian 0, big-endian 1), so that
     * a case can compute what depends on them.
     */
    static Map<String, Long> enumerationIndices(final DeviceProfile profile, final Specification spec) {
        final Map<String, Long> out = new LinkedHashMap<>();
        final Map<String, Object> declared = profile.effectiveParameters(spec);
        for (final Parameter parameter : spec.parameters()) {
            if (parameter.isNumeric() || !(declared.get(parameter.name()) instanceof String word)) {
                continue;
            }
            final List<String> words = Arrays.stream(parameter.rangeText().split(","))
                .map(w -> w.trim().toLowerCase(Locale.ROOT)).toList();
            final int index = words.indexOf(word.trim().toLowerCase(Locale.ROOT));
            if (index >= 0) {
                out.put(parameter.name(), (long) index);
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- setup

    private void setUp() {
        final SplittableRandom random = new SplittableRandom(caseSeed);
        for (final ConnectionDef cd : def.connections()) {
            final int count = cd.count() == null ? 1 : (int) eval(cd.count());
            for (int k = 0; k < count; k++) {
                final String name = count == 1 ? cd.name() : cd.name() + "[" + k + "]";
                createConnection(cd, name, random);
            }
        }
        for (final RegionDef rd : def.regions()) {
            final Connection owner = rd.connection() != null ? firstNamed(rd.connection())
                : rd.onPeer() ? connections.values().stream().filter(c -> c.peer).findFirst().orElse(null)
                : connections.values().iterator().next();
            if (owner == null && rd.connection() != null) {
                throw new IllegalArgumentException("region " + rd.name() + ": no connection '" + rd.connection() + "'");
            }
            if (rd.onPeer() && (owner == null || !owner.peer)) {
                throw new IllegalArgumentException("region " + rd.name() + " is on the peer, so its connection must "
                    + "be a peer connection");
            }
            final ControlPlane side = rd.onPeer() ? peer.control() : control;
            final int pd = rd.ownPd() ? side.allocatePd() : rd.onPeer() ? owner.peerPd : owner.pd;
            final Set<Access> access = rd.access();
            final long length = eval(rd.length());
            final MemoryRegion mr = side.registerMr(pd, length, access);
            byte[] initial = new byte[(int) length];
            if (rd.fill() != null) {
                initial = rd.fill().bytes(0, (int) length, names);
                side.writeMemory(mr.va(), initial);
            }
            regions.put(rd.name(), new Region(rd.name(), mr, initial, rd.onPeer()));
            values.put(rd.name() + ".va", mr.va());
            values.put(rd.name() + ".rkey", Integer.toUnsignedLong(mr.rkey()));
            values.put(rd.name() + ".lkey", Integer.toUnsignedLong(mr.lkey()));
            values.put(rd.name() + ".length", mr.length());
        }
    }

    private void createConnection(final ConnectionDef cd, final String name, final SplittableRandom random) {
        final boolean ipv6 = cd.network() == IpVersion.IPV6;
        final int pd = cd.pd() != null ? sharedPd(cd.pd()) : control.allocatePd();
        int peerQpn = 0x100 + random.nextInt(0xFFFF00);
        while (byPeerQpn.containsKey(peerQpn)) {
            peerQpn = 0x100 + random.nextInt(0xFFFF00); // scale cases: every connection needs its own peer QPN
        }
        final int psnBase = cd.psn() != null ? (int) (eval(cd.psn()) & Psn.MASK) : random.nextInt(Psn.MODULUS);
        final int devicePsnBase = cd.devicePsn() != null ? (int) (eval(cd.devicePsn()) & Psn.MASK)
            : random.nextInt(Psn.MODULUS);
        int peerPd = 0;
        if (cd.peer()) {
            peerPd = peer.control().allocatePd();
            peerQpn = peer.control().createQp(peerAttributes(cd, ipv6, peerPd, psnBase, devicePsnBase));
        }
        final String harnessIp = ipv6 ? endpoints.harnessIpv6() : endpoints.harnessIpv4();
        final String deviceIp = ipv6 ? endpoints.deviceIpv6() : endpoints.deviceIpv4();
        if (harnessIp == null || deviceIp == null) {
            throw new UnsupportedOperationException("no " + cd.network().label()
                + " address for the device or the harness");
        }
        // built from small maps merged once each: a scale case creates 65,536 connections
        final QpAttributes own = QpAttributes.empty().with(QpAttribute.PD, pd).with(QpAttribute.DEST_QPN, peerQpn)
            .with(QpAttribute.RQ_PSN, psnBase).with(QpAttribute.SQ_PSN, devicePsnBase)
            .with(QpAttribute.DEST_IP, harnessIp).with(QpAttribute.DEST_MAC, endpoints.harnessMac())
            .with(QpAttribute.TVER, 1).with(QpAttribute.PKEY, 0xFFFF)
            .with(QpAttribute.ACCESS, Set.of(Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC));
        QpAttributes fromCase = QpAttributes.empty();
        for (final Map.Entry<QpAttribute, AttributeValue> entry : cd.attributes().entrySet()) {
            fromCase = fromCase.with(entry.getKey(), attributeValue(entry.getValue()));
        }
        QpAttributes attributes = profileAttributes().with(own).with(fromCase);
        Encapsulation encapsulation = baseEncapsulations.computeIfAbsent(ipv6, v6 -> (v6
            ? Encapsulation.ipv6(harnessIp, deviceIp) : Encapsulation.ipv4(harnessIp, deviceIp))
            .withMacs(endpoints.harnessMac(), endpoints.deviceMac())
            .withDscp(values.getOrDefault("data_dscp", 26L).intValue()))
            .withUdpSourcePort(0xC000 | (peerQpn & 0x3FFF));
        if (cd.vlan() != null) {
            final int vlan = (int) eval(cd.vlan());
            encapsulation = encapsulation.withVlan(vlan, 0);
            attributes = attributes.with(QpAttribute.VLAN, vlan);
        }
        final int qpn = control.createQp(attributes);
        control.modifyQp(qpn, QpState.INIT, QpAttributes.empty());
        control.modifyQp(qpn, QpState.RTR, QpAttributes.empty());
        control.modifyQp(qpn, QpState.RTS, QpAttributes.empty());
        if (cd.peer()) {
            peer.control().modifyQp(peerQpn, QpState.INIT, QpAttributes.empty());
            peer.control().modifyQp(peerQpn, QpState.RTR, QpAttributes.empty().with(QpAttribute.DEST_QPN, qpn)
                .with(QpAttribute.PMTU, attributes.getInt(QpAttribute.PMTU, 1024))
                .with(QpAttribute.TVER, attributes.getInt(QpAttribute.TVER, 1))
                .with(QpAttribute.PKEY, attributes.getInt(QpAttribute.PKEY, 0xFFFF)));
            peer.control().modifyQp(peerQpn, QpState.RTS, QpAttributes.empty());
        }
        final Connection connection = new Connection(name, pd, qpn, peerQpn, psnBase, devicePsnBase, encapsulation,
            attributes.getInt(QpAttribute.TVER, 1), attributes.getInt(QpAttribute.PKEY, 0xFFFF),
            attributes.getInt(QpAttribute.PMTU, 1024), attributes.getInt(QpAttribute.RECV_WINDOW, 128));
        connection.created = attributes;
        connection.spray = attributes.getBoolean(QpAttribute.SPRAY, false);
        connection.udpSport = attributes.has(QpAttribute.UDP_SPORT) ? attributes.getInt(QpAttribute.UDP_SPORT, 0)
            : null;
        connection.peer = cd.peer();
        connection.peerPd = peerPd;
        connections.put(name, connection);
        byPeerQpn.put(peerQpn, connection);
        byDeviceQpn.put(qpn, connection);
        if (cd.peer()) {
            network.add(connection);
        }
        if (name.equals(cd.name())) { // the QPs of a connection with a count (q[i]) have no names in expressions
            values.put(name + ".qpn", (long) qpn);
            values.put(name + ".peer_qpn", (long) peerQpn);
            values.put(name + ".psn", (long) psnBase);
            values.put(name + ".device_psn", (long) devicePsnBase);
            values.put(name + ".pmtu", (long) connection.pmtu);
        }
        addresses.put(name + ".harness_ip", encapsulation.sourceIp());
        addresses.put(name + ".device_ip", encapsulation.destinationIp());
    }

    /**
     * The attributes of the peer's QP: addressed to the device, with the device's PSN spaces mirrored, a receive window
     * as large as the device's send window, and the case's {@code peer_attrs} on top. PMTU, TVer and P_Key follow the
     * device's QP when the peer's QP enters RTR.
     */
    private QpAttributes peerAttributes(final ConnectionDef cd, final boolean ipv6, final int pd, final int psnBase,
                                        final int devicePsnBase) {
        QpAttributes attributes = QpAttributes.empty().with(QpAttribute.PD, pd)
            .with(QpAttribute.DEST_IP, ipv6 ? endpoints.deviceIpv6() : endpoints.deviceIpv4())
            .with(QpAttribute.DEST_MAC, endpoints.deviceMac()).with(QpAttribute.RQ_PSN, devicePsnBase)
            .with(QpAttribute.SQ_PSN, psnBase)
            .with(QpAttribute.RECV_WINDOW, Math.max(values.getOrDefault("send_window", 128L),
                cd.attributes().get(QpAttribute.SEND_WINDOW) instanceof AttributeValue.Numeric window
                    ? eval(window.value()) : 0))
            .with(QpAttribute.ACCESS, Set.of(Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC));
        if (cd.vlan() != null) {
            attributes = attributes.with(QpAttribute.VLAN, (int) eval(cd.vlan()));
        }
        for (final Map.Entry<QpAttribute, AttributeValue> entry : cd.peerAttributes().entrySet()) {
            attributes = attributes.with(entry.getKey(), attributeValue(entry.getValue()));
        }
        return attributes;
    }

    /** The QP attributes taken from the profile and the case's parameters (the same for every connection). */
    private QpAttributes profileAttributes() {
        if (profileAttributes == null) {
            QpAttributes attributes = QpAttributes.empty();
            for (final QpAttribute attribute : PROFILE_ATTRIBUTES) {
                final Long value = values.get(attribute.label());
                if (value != null) {
                    attributes = attributes.with(attribute, value);
                }
            }
            profileAttributes = attributes;
        }
        return profileAttributes;
    }

    /** The PD of the connection named {@code name} (its first QP when it has several), for {@code pd: name}. */
    private int sharedPd(final String name) {
        final Connection owner = firstNamed(name);
        if (owner == null) {
            throw new IllegalArgumentException("pd: no earlier connection '" + name + "' to share a PD with");
        }
        return owner.pd;
    }

    /** The connection called {@code name}, or the first QP ({@code name[0]}) of a connection with a count. */
    private Connection firstNamed(final String name) {
        final Connection c = connections.get(name);
        return c != null ? c : connections.get(name + "[0]");
    }

    private Object attributeValue(final AttributeValue value) {
        return value.resolve(this::eval);
    }

    // ---------------------------------------------------------------- steps

    private void runSteps(final List<Step> steps) {
        for (final Step step : steps) {
            if (!(step instanceof Step.Repeat)) {
                stepIndex++;
                currentStep = step;
            }
            execute(step);
        }
    }

    private Connection connection(final String name) {
        Connection c = connections.get(name);
        final int open = name.indexOf('[');
        if (c == null && open > 0 && name.endsWith("]")) {
            final long index = eval(indexExpressions.computeIfAbsent(name,
                n -> Expr.parse(n.substring(open + 1, n.length() - 1))));
            c = connections.get(name.substring(0, open) + "[" + index + "]");
        }
        if (c == null) {
            throw new IllegalArgumentException("no connection '" + name + "'");
        }
        return c;
    }

    private void execute(final Step step) {
        if (step instanceof Step.Send s) {
            final Connection c = connection(s.packet().connection());
            final Traffic.Outgoing out = traffic.packet(s.packet(), c, regions, names);
            send(out.bytes(), "sent");
        } else if (step instanceof Step.Message m) {
            final Connection c = connection(m.message().connection());
            final long gap = m.message().gap() == null ? 0 : eval(m.message().gap());
            boolean first = true;
            for (final Traffic.Outgoing out : traffic.message(m.message(), c, regions, names)) {
                if (out.sent()) {
                    if (!first && gap > 0) {
                        pollUntil(data.now() + gap);
                    }
                    first = false;
                    send(out.bytes(), out.note());
                } else {
                    evidence.add(Direction.TO_DUT, data.now(), out.bytes(), stepIndex, out.note());
                }
            }
        } else if (step instanceof Step.Flow f) {
            flow(f.flow());
        } else if (step instanceof Step.Expect e) {
            expect(e);
        } else if (step instanceof Step.ExpectUnordered e) {
            expectUnordered(e);
        } else if (step instanceof Step.ExpectNone e) {
            expectNone(e);
        } else if (step instanceof Step.Advance a) {
            final long until = data.now() + eval(a.duration());
            pollUntil(until);
            lastTime = Math.max(lastTime, until);
        } else if (step instanceof Step.ExpectMemory e) {
            expectMemory(e);
        } else if (step instanceof Step.ExpectCompletions e) {
            expectCompletions(e);
        } else if (step instanceof Step.ExpectCounters e) {
            expectCounters(e);
        } else if (step instanceof Step.ExpectQp e) {
            final QpState actual = control.queryQp(connection(e.connection()).deviceQpn);
            if (actual != e.state()) {
                throw new StepFailure("QP " + e.connection() + " is in " + actual + ", expected "
                    + e.state(), -1, List.of(new FieldDiff("qp.state",
                        e.state().name(), actual.name())), null, null);
            }
        } else if (step instanceof Step.PostReceive p) {
            postReceive(p);
        } else if (step instanceof Step.Invalidate i) {
            final Region region = regions.get(i.region());
            control.invalidateRkey(region.mr.rkey());
            region.invalidated = true;
        } else if (step instanceof Step.ModifyQp m) {
            modifyQp(m);
        } else if (step instanceof Step.WriteMemory w) {
            final Region region = regions.get(w.region());
            final long offset = w.offset() == null ? 0 : eval(w.offset());
            final int length = w.data().length() == null ? (int) (region.mr.length() - offset)
                : (int) eval(w.data().length());
            final byte[] bytes = w.data().pattern().bytes(w.data().offset() == null ? 0 : eval(w.data().offset()),
                length, names);
            (region.onPeer ? peer.control() : control).writeMemory(region.mr.va() + offset, bytes);
            region.place(region.mr.va() + offset, bytes);
        } else if (step instanceof Step.Repeat r) {
            final long from = eval(r.from());
            final long to = eval(r.to());
            final long by = r.by() == null ? 1 : eval(r.by());
            if (by == 0) {
                throw new IllegalArgumentException("repeat step 'by' is 0");
            }
            for (long v = from; by > 0 ? v <= to : v >= to; v += by) {
                loops.push(Map.of(r.variable(), v));
                try {
                    runSteps(r.steps());
                } finally {
                    loops.pop();
                }
            }
        } else if (step instanceof Step.PostSend p) {
            requesterSteps.postSend(p, connection(p.connection()), regions);
        } else if (step instanceof Step.Network n) {
            if (network == null) {
                throw new IllegalArgumentException("a network step needs a connection with peer: true");
            }
            network.configure(n.network(), connections, this::eval);
        } else if (step instanceof Step.ExpectTraffic t) {
            pollUntil(data.now());
            requesterSteps.expectTraffic(t.traffic(), connection(t.traffic().connection()), network,
                data.now());
        } else if (step instanceof Step.ExpectRate r) {
            pollUntil(data.now());
            requesterSteps.expectRate(r.rate(), connection(r.rate().connection()), data.now());
        }
    }

    private void flow(final org.metaroce.mrct.harness.cases.FlowSpec spec) {
        final Connection c = connection(spec.connection());
        final List<Traffic.Prepared> messages = new ArrayList<>();
        for (final org.metaroce.mrct.harness.cases.MessageSpec message : spec.messages()) {
            messages.add(traffic.prepare(message, c, regions, names));
        }
        final long cnpDelay = values.getOrDefault("cnp_delay_max_ns", 10_000L);
        final FlowChecker checker = new FlowChecker(c, values.getOrDefault("cnp_interval_ns", 50_000L), cnpDelay,
            tolerance(cnpDelay));
        boolean lastAckReq = false;
        for (final org.metaroce.mrct.harness.cases.FlowSpec.Packet packet : spec.packets()) {
            final Traffic.Prepared prepared = messages.get(packet.message());
            lastAckReq = packet.ackReq() || prepared.isLast(packet.packet());
            for (int copy = 0; copy < (packet.duplicate() ? 2 : 1); copy++) {
                final Traffic.Outgoing out = prepared.emit(c, packet.packet(), packet.ce(), lastAckReq,
                    copy == 0 ? "sent" : "sent (duplicate)");
                send(out.bytes(), out.note() + " " + packet.text());
                if (packet.ce()) {
                    checker.ceSent(data.now());
                }
                checkFlowFrames(checker, data.now());
            }
        }
        final long settle = spec.settle() != null ? eval(spec.settle()) : values.getOrDefault("ack_delay_max_ns",
            8000L);
        final long until = data.now() + settle + tolerance(settle);
        checkFlowFrames(checker, until);
        lastTime = until;
        final StepFailure failure = checker.finish(lastAckReq, until);
        if (failure != null) {
            throw failure;
        }
    }

    /** Takes every frame due by {@code until} and checks it against the flow's invariants. */
    private void checkFlowFrames(final FlowChecker checker, final long until) {
        pollUntil(until);
        while (!inbox.isEmpty()) {
            final Received received = inbox.pollFirst();
            evidence.note(received.evidence(), stepIndex, "checked by the flow's invariants");
            final StepFailure failure = checker.check(received.decoded(), received.frame().timestampNanos(),
                received.evidence());
            if (failure != null) {
                throw failure.at(received.evidence(), evidence.dump(received.evidence()));
            }
        }
    }

    /**
     * A {@code modify_qp} step. The first modification after a RESET gives the QP its creation attributes again (the
     * case's own attributes take precedence), as the control plane of a peer bringing the connection back would; the
     * harness's end of the connection starts afresh at the RESET, and a new rq_psn or sq_psn given before the QP is
     * back in RTS moves the connection's PSN spaces (MR-QP-010).
     */
    private void modifyQp(final Step.ModifyQp m) {
        final Connection c = connection(m.connection());
        final QpState target = m.state();
        QpAttributes attributes = c.needsAttributes && target != QpState.RESET ? c.created : QpAttributes.empty();
        for (final Map.Entry<QpAttribute, AttributeValue> entry : m.attributes().entrySet()) {
            attributes = attributes.with(entry.getKey(), attributeValue(entry.getValue()));
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
        c.forgetPorts();
        if (target == QpState.RESET) {
            c.restart();
            highestBase.remove(c);
            return;
        }
        if (c.needsAttributes) {
            c.needsAttributes = false;
        }
        if (c.restarting) {
            if (attributes.has(QpAttribute.RQ_PSN)) {
                c.psnBase = attributes.getInt(QpAttribute.RQ_PSN, c.psnBase) & Psn.MASK;
                values.put(c.name + ".psn", (long) c.psnBase);
            }
            if (attributes.has(QpAttribute.SQ_PSN)) {
                c.devicePsnBase = attributes.getInt(QpAttribute.SQ_PSN, c.devicePsnBase) & Psn.MASK;
                values.put(c.name + ".device_psn", (long) c.devicePsnBase);
            }
            c.restarting = target != QpState.RTS;
        }
        if (attributes.has(QpAttribute.SPRAY)) {
            c.spray = attributes.getBoolean(QpAttribute.SPRAY, c.spray);
        }
        if (attributes.has(QpAttribute.UDP_SPORT)) {
            c.udpSport = attributes.getInt(QpAttribute.UDP_SPORT, 0);
        }
    }

    private void send(final byte[] bytes, final String note) {
        final long now = data.now();
        evidence.add(Direction.TO_DUT, now, bytes, stepIndex, note);
        data.send(bytes);
        lastTime = now;
        observeToDevice(decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length), now);
    }

    /** A frame the device received: its requester checker (if any) learns of acknowledgements, responses, CNPs. */
    private void observeToDevice(final DecodedFrame decoded, final long now) {
        if (!decoded.isRoce()) {
            return;
        }
        final Connection c = byDeviceQpn.get(decoded.bth().destQp());
        if (c != null && (c.requester != null || def.role() == Role.REQUESTER)) {
            // in a requester case a CNP before the first post_send still sets the QP's rate (DCQCN model)
            requesterSteps.checker(c).toDevice(decoded, now);
        }
    }

    /** The network delivers a frame from the peer to the device (its clock is at the frame's arrival). */
    private void deliverFromPeer(final byte[] bytes, final DecodedFrame decoded, final Connection c,
                                 final String note) {
        final long now = data.now();
        evidence.add(Direction.TO_DUT, now, bytes, -1, note);
        data.send(bytes);
        observeToDevice(decoded, now);
    }

    private void postReceive(final Step.PostReceive p) {
        final Connection c = connection(p.connection());
        final Region region = regions.get(p.region());
        final long offset = p.offset() == null ? 0 : eval(p.offset());
        final int length = (int) eval(p.length());
        final long count = eval(p.count());
        for (int k = 0; k < count; k++) {
            final long va = region.mr.va() + offset + (long) k * length;
            final long wrId = c.nextWrId++;
            if (region.onPeer) {
                peer.control().postReceive(c.peerQpn, new ReceiveWqe(wrId, va, length, region.mr.lkey()));
                continue;
            }
            control.postReceive(c.deviceQpn, new ReceiveWqe(wrId, va, length, region.mr.lkey()));
            c.receives.add(new Connection.Receive(wrId, va, length, region));
        }
    }

    // ---------------------------------------------------------------- frames from the device

    /**
     * Moves every frame the device emits up to {@code deadline} into the inbox (ignored ones aside), running the
     * network to the peer alongside.
     */
    private void pollUntil(final long deadline) {
        while (pump(deadline)) {
            // until nothing is left before the deadline
        }
    }

    /** Waits for the next frame up to {@code deadline}; null when none came. */
    private Received next(final long deadline) {
        while (inbox.isEmpty()) {
            if (!pump(deadline)) {
                return null;
            }
        }
        return inbox.pollFirst();
    }

    /**
     * One step of the shared clock: the device runs until its next frame or the network's next event (or {@code
     * deadline}), whichever comes first; then the network and the peer catch up. False when the device reached the
     * deadline with nothing left to do before it.
     */
    private boolean pump(final long deadline) {
        final long networkNext = network == null ? Long.MAX_VALUE : network.nextEventTime();
        final CapturedFrame frame = data.poll(Math.min(deadline, networkNext));
        if (frame != null) {
            accept(frame);
            return true;
        }
        if (networkNext > deadline) {
            return false;
        }
        network.runUntil(data.now(), this::deliverFromPeer);
        return true;
    }

    private void accept(final CapturedFrame frame) {
        final byte[] bytes = frame.unsafeBytes();
        final DecodedFrame decoded = decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length).copy();
        final Connection owner = decoded.isRoce() ? byPeerQpn.get(decoded.bth().destQp()) : null;
        final TransmitRules.Violation violation = TransmitRules.check(decoded, owner, endpoints.harnessMac(),
            endpoints.deviceMac(), highestBase);
        if (violation != null) {
            final int index = evidence.add(Direction.FROM_DUT, frame.timestampNanos(), bytes, stepIndex,
                "violates " + violation.rule());
            final StepFailure failure = new StepFailure("frame #" + index + " (" + (decoded.isRoce()
                ? decoded.opcode().name() : decoded.status()) + ") breaks " + violation.rule() + ": "
                + violation.diff(), index, List.of(violation.diff()), null, evidence.dump(index));
            failure.rule = violation.rule();
            throw failure;
        }
        if (owner != null && decoded.opcode().kind().isRequest()) {
            final RequesterChecker checker = requesterSteps.checker(owner);
            final int index = evidence.add(Direction.FROM_DUT, frame.timestampNanos(), bytes, -1,
                owner.peer ? "to the peer" : "unexpected");
            final StepFailure failure = checker.device(decoded, frame.timestampNanos(), index);
            if (failure != null) {
                evidence.note(index, stepIndex, "violates " + failure.rule);
                throw failure.at(index, evidence.dump(index));
            }
            if (owner.peer) {
                final int psn = Psn.distance(owner.devicePsnBase, decoded.bth().psn());
                evidence.note(index, stepIndex, network.fromDevice(bytes, decoded, frame.timestampNanos(), owner,
                    psn, checker.transmissions(psn)));
                return;
            }
            inbox.addLast(new Received(frame, decoded, index));
            return;
        }
        if (owner != null && owner.peer) {
            final int index = evidence.add(Direction.FROM_DUT, frame.timestampNanos(), bytes, stepIndex, "");
            evidence.note(index, stepIndex, network.fromDevice(bytes, decoded, frame.timestampNanos(), owner,
                decoded.opcode() == org.metaroce.mrct.wire.Opcode.CNP ? 0
                    : Psn.distance(owner.psnBase, decoded.bth().psn()), 1));
            return;
        }
        for (final FrameTemplate ignore : def.ignore()) {
            final Connection c = ignore.connection() == null ? null : connections.get(ignore.connection());
            if (FrameCheck.check(decoded, ignore, c, names, addresses::get).isEmpty()) {
                evidence.add(Direction.FROM_DUT, frame.timestampNanos(), bytes, -1, "ignored");
                return;
            }
        }
        final int index = evidence.add(Direction.FROM_DUT, frame.timestampNanos(), bytes, -1, "unexpected");
        inbox.addLast(new Received(frame, decoded, index));
    }

    private long window(final Expr within) {
        return within != null ? eval(within) : run.expectTimeoutNs();
    }

    private long tolerance(final long window) {
        return Math.max(run.toleranceNs(), window * run.tolerancePercent() / 100);
    }

    private void expect(final Step.Expect e) {
        final long window = window(e.within());
        final long reference = lastTime;
        final long deadline = reference + window + tolerance(window);
        final Connection c = e.template().connection() == null ? null : connection(e.template().connection());
        while (true) {
            final Received received = next(deadline);
            if (received == null) {
                throw new StepFailure("no frame arrived within " + nanos(window) + " (expected "
                    + e.template().summary() + ")", -1, List.of(), describe(e.template()), null);
            }
            final List<FieldDiff> diffs = FrameCheck.check(received.decoded(), e.template(), c, names, addresses::get);
            if (diffs.isEmpty()) {
                checkTiming(e, received, reference);
                evidence.note(received.evidence(), stepIndex, "matched");
                lastTime = received.frame().timestampNanos();
                return;
            }
            if (!e.skipOthers()) {
                evidence.note(received.evidence(), stepIndex, "mismatch");
                throw new StepFailure(mismatchMessage(received, diffs), received.evidence(), diffs,
                    describe(e.template()), evidence.dump(received.evidence()));
            }
            evidence.note(received.evidence(), stepIndex, "skipped");
        }
    }

    private void checkTiming(final Step.Expect e, final Received received, final long reference) {
        if (e.after() == null) {
            return;
        }
        final long after = eval(e.after());
        final long elapsed = received.frame().timestampNanos() - reference;
        if (elapsed < after - tolerance(after)) {
            throw new StepFailure("frame #" + received.evidence() + " came after " + nanos(elapsed)
                + ", earlier than the " + nanos(after) + " expected", received.evidence(),
                List.of(new FieldDiff("time", "at least " + nanos(after), nanos(elapsed))), describe(e.template()),
                evidence.dump(received.evidence()));
        }
    }

    private String mismatchMessage(final Received received, final List<FieldDiff> diffs) {
        final StringBuilder message = new StringBuilder("frame #").append(received.evidence()).append(" (")
            .append(received.decoded().isRoce() ? received.decoded().opcode().name() : received.decoded().status())
            .append("): ");
        for (int i = 0; i < diffs.size(); i++) {
            message.append(i == 0 ? "" : "; ").append(diffs.get(i));
        }
        return message.toString();
    }

    private String describe(final FrameTemplate template) {
        final StringBuilder out = new StringBuilder("expected ").append(template.summary()).append('\n');
        for (final Map.Entry<String, org.metaroce.mrct.harness.cases.Matcher> entry : template.fields().entrySet()) {
            out.append("  ").append(entry.getKey()).append(" = ")
                .append(entry.getValue().describe(names, v -> FrameCheck.describe(entry.getKey(), v))).append('\n');
        }
        return out.toString();
    }

    private void expectUnordered(final Step.ExpectUnordered e) {
        final long window = window(e.within());
        final long deadline = lastTime + window + tolerance(window);
        final List<FrameTemplate> open = new ArrayList<>(e.templates());
        long latest = lastTime;
        while (!open.isEmpty()) {
            final Received received = next(deadline);
            if (received == null) {
                throw new StepFailure(open.size() + " of " + e.templates().size() + " expected frames did not arrive "
                    + "within " + nanos(window) + ": " + open.stream().map(FrameTemplate::summary).toList(), -1,
                    List.of(), describe(open.get(0)), null);
            }
            boolean matched = false;
            List<FieldDiff> closest = List.of();
            for (int i = 0; i < open.size(); i++) {
                final FrameTemplate template = open.get(i);
                final Connection c = template.connection() == null ? null : connection(template.connection());
                final List<FieldDiff> diffs = FrameCheck.check(received.decoded(), template, c, names,
                    addresses::get);
                if (diffs.isEmpty()) {
                    open.remove(i);
                    matched = true;
                    break;
                }
                if (closest.isEmpty() || diffs.size() < closest.size()) {
                    closest = diffs;
                }
            }
            if (!matched) {
                evidence.note(received.evidence(), stepIndex, "mismatch");
                throw new StepFailure("frame #" + received.evidence() + " matches none of the "
                    + open.size() + " frames still expected; closest: " + closest, received.evidence(), closest,
                    describe(open.get(0)), evidence.dump(received.evidence()));
            }
            evidence.note(received.evidence(), stepIndex, "matched");
            latest = Math.max(latest, received.frame().timestampNanos());
        }
        lastTime = latest;
    }

    private void expectNone(final Step.ExpectNone e) {
        final long duration = eval(e.duration());
        final long deadline = data.now() + duration;
        final Connection c = e.filter() == null || e.filter().connection() == null ? null
            : connection(e.filter().connection());
        // On virtual time the previous step ended now. On a real-time adapter the harness reaches this step late,
        // so the window the case means starts at the previous step's time: a frame stamped after its end is allowed.
        final long windowEnd = run.adapter().capabilities().contains(org.metaroce.mrct.spi.Capability.VIRTUAL_TIME)
            ? deadline : Math.min(deadline, lastTime + duration);
        final int before = inbox.size();
        pollUntil(deadline);
        int index = 0;
        for (final Received received : inbox) {
            if (index++ < before || received.frame().timestampNanos() > windowEnd) {
                continue;
            }
            if (e.filter() == null || FrameCheck.check(received.decoded(), e.filter(), c, names, addresses::get)
                .isEmpty()) {
                evidence.note(received.evidence(), stepIndex, "unexpected");
                throw new StepFailure("frame #" + received.evidence() + " (" + (received.decoded().isRoce()
                    ? received.decoded().opcode().name() : received.decoded().status()) + ") arrived "
                    + nanos(received.frame().timestampNanos() - lastTime) + " after the previous step, while none "
                    + (e.filter() == null ? "" : "matching " + e.filter().summary() + " ") + "was expected for "
                    + nanos(duration), received.evidence(), List.of(), null, evidence.dump(received.evidence()));
            }
        }
        lastTime = deadline;
    }

    private void expectMemory(final Step.ExpectMemory e) {
        final Region region = regions.get(e.region());
        final long offset = e.offset() == null ? 0 : eval(e.offset());
        final int length = e.length() != null ? (int) eval(e.length())
            : e.equals() != null && e.equals().length() != null ? (int) eval(e.equals().length())
            : (int) (region.mr.length() - offset);
        final byte[] expected;
        if (e.model()) {
            expected = Arrays.copyOfRange(region.model, (int) offset, (int) offset + length);
        } else if (e.untouched()) {
            expected = Arrays.copyOfRange(region.initial, (int) offset, (int) offset + length);
        } else {
            expected = e.equals().pattern().bytes(e.equals().offset() == null ? 0 : eval(e.equals().offset()), length,
                names);
        }
        final byte[] actual = (region.onPeer ? peer.control() : control).readMemory(region.mr.va() + offset, length);
        if (!Arrays.equals(expected, actual)) {
            int first = 0;
            while (first < length && expected[first] == actual[first]) {
                first++;
            }
            int last = length - 1;
            while (last > first && expected[last] == actual[last]) {
                last--;
            }
            throw new StepFailure("memory of " + region.name + " differs at offsets " + (offset + first) + ".."
                + (offset + last) + " (" + (last - first + 1) + " bytes span): expected "
                + hexWindow(expected, first) + ", actual " + hexWindow(actual, first), -1,
                List.of(new FieldDiff(region.name + "[" + (offset + first) + "]",
                    FrameCheck.number(expected[first] & 0xFF), FrameCheck.number(actual[first] & 0xFF))), null, null);
        }
    }

    private static String hexWindow(final byte[] bytes, final int from) {
        final StringBuilder out = new StringBuilder();
        for (int i = from; i < Math.min(bytes.length, from + 16); i++) {
            out.append(String.format(Locale.ROOT, "%02x", bytes[i] & 0xFF));
        }
        return out.append(bytes.length > from + 16 ? "..." : "").toString();
    }

    private void expectCompletions(final Step.ExpectCompletions e) {
        final Connection c = connection(e.connection());
        final List<Completion> actual = new ArrayList<>();
        while (true) {
            final List<Completion> batch = control.pollCompletions(c.deviceQpn, 64);
            if (batch.isEmpty()) {
                break;
            }
            actual.addAll(batch);
        }
        final List<CompletionTemplate> expected = new ArrayList<>(e.entries());
        if (e.model()) {
            for (final ResponderModel.ExpectedCompletion m : c.model.completions()) {
                expected.add(new CompletionTemplate(m.opcode(), CompletionStatus.SUCCESS, Expr.of(m.length()),
                    m.immediate() == null ? null : Expr.of(Integer.toUnsignedLong(m.immediate())),
                    m.invalidatedRkey() == null ? null : Expr.of(Integer.toUnsignedLong(m.invalidatedRkey())), null,
                    null, e.line()));
            }
        }
        for (int i = 0; i < expected.size(); i++) {
            if (i >= actual.size()) {
                throw new StepFailure("completion " + (i + 1) + " of " + expected.size() + " is missing on "
                    + c.name + " (got " + actual.size() + ")", -1, List.of(new FieldDiff("completions",
                        Integer.toString(expected.size()), Integer.toString(actual.size()))), null, null);
            }
            final List<FieldDiff> diffs = completionDiffs(expected.get(i), actual.get(i));
            if (!diffs.isEmpty()) {
                throw new StepFailure("completion " + (i + 1) + " on " + c.name + ": " + diffs, -1, diffs, null,
                    actual.get(i).toString());
            }
        }
        if (e.exact() && actual.size() > expected.size()) {
            throw new StepFailure(actual.size() - expected.size() + " unexpected completion(s) on " + c.name
                + ", first: " + actual.get(expected.size()), -1, List.of(new FieldDiff("completions",
                    Integer.toString(expected.size()), Integer.toString(actual.size()))), null, null);
        }
    }

    private List<FieldDiff> completionDiffs(final CompletionTemplate expected, final Completion actual) {
        final List<FieldDiff> diffs = new ArrayList<>();
        if (expected.opcode() != null && expected.opcode() != actual.opcode()) {
            diffs.add(new FieldDiff("opcode", expected.opcode().name(), actual.opcode().name()));
        }
        if (expected.status() != null && expected.status() != actual.status()) {
            diffs.add(new FieldDiff("status", expected.status().name(), actual.status().name()));
        }
        if (expected.length() != null && eval(expected.length()) != actual.byteLength()) {
            diffs.add(new FieldDiff("length", FrameCheck.number(eval(expected.length())),
                FrameCheck.number(actual.byteLength())));
        }
        if (expected.immediate() != null) {
            final long want = eval(expected.immediate()) & 0xFFFF_FFFFL;
            if (!actual.hasImmediate() || Integer.toUnsignedLong(actual.immediate()) != want) {
                diffs.add(new FieldDiff("immediate", FrameCheck.number(want), actual.hasImmediate()
                    ? FrameCheck.number(Integer.toUnsignedLong(actual.immediate())) : "none"));
            }
        }
        if (expected.invalidated() != null) {
            final long want = eval(expected.invalidated()) & 0xFFFF_FFFFL;
            if (!actual.hasInvalidate() || Integer.toUnsignedLong(actual.invalidatedRkey()) != want) {
                diffs.add(new FieldDiff("invalidated_rkey", FrameCheck.number(want), actual.hasInvalidate()
                    ? FrameCheck.number(Integer.toUnsignedLong(actual.invalidatedRkey())) : "none"));
            }
        }
        if (expected.solicited() != null && expected.solicited() != actual.solicited()) {
            diffs.add(new FieldDiff("solicited", expected.solicited().toString(),
                Boolean.toString(actual.solicited())));
        }
        if (expected.wrId() != null && eval(expected.wrId()) != actual.wrId()) {
            diffs.add(new FieldDiff("wr_id", FrameCheck.number(eval(expected.wrId())),
                FrameCheck.number(actual.wrId())));
        }
        return diffs;
    }

    private void expectCounters(final Step.ExpectCounters e) {
        final Map<String, Long> now = e.connection() == null ? control.counters()
            : control.qpCounters(connection(e.connection()).deviceQpn);
        final Map<String, Long> countersAtStart = e.connection() == null ? this.countersAtStart : Map.of();
        final List<FieldDiff> diffs = new ArrayList<>();
        for (final Map.Entry<String, Expr> entry : e.values().entrySet()) {
            final long expected = eval(entry.getValue());
            final Long value = now.get(entry.getKey());
            if (value == null) {
                diffs.add(new FieldDiff(entry.getKey(), "+" + expected, "not kept by the device"));
                continue;
            }
            final long delta = value - countersAtStart.getOrDefault(entry.getKey(), 0L);
            if (delta != expected) {
                diffs.add(new FieldDiff(entry.getKey(), "+" + expected, "+" + delta));
            }
        }
        if (e.exact()) {
            for (final Map.Entry<String, Long> entry : now.entrySet()) {
                if (e.values().containsKey(entry.getKey())) {
                    continue;
                }
                final long delta = entry.getValue() - countersAtStart.getOrDefault(entry.getKey(), 0L);
                if (delta != 0 && isSpecCounter(entry.getKey())) {
                    diffs.add(new FieldDiff(entry.getKey(), "+0 (unchanged)", "+" + delta));
                }
            }
        }
        if (!diffs.isEmpty()) {
            throw new StepFailure("counters disagree with what the harness sent: " + diffs, -1, diffs, null, null);
        }
    }

    private boolean isSpecCounter(final String name) {
        return run.spec().counters().stream().anyMatch(c -> c.name().equals(name) && c.name().startsWith("drop_"));
    }

    private void finish() {
        pollUntil(data.now());
        if (!def.exhaustive() || inbox.isEmpty()) {
            if (!inbox.isEmpty()) {
                notes.add(inbox.size() + " frame(s) from the device were not expected by any step (not checked: the "
                    + "case is not exhaustive)");
                for (final Received received : inbox) {
                    evidence.note(received.evidence(), -1, "left over");
                }
            }
            return;
        }
        final Received first = inbox.peekFirst();
        for (final Received received : inbox) {
            evidence.note(received.evidence(), -1, "unexpected");
        }
        throw new StepFailure(inbox.size() + " frame(s) from the device that no step expected, first frame #"
            + first.evidence() + " (" + (first.decoded().isRoce() ? first.decoded().opcode().name()
                : first.decoded().status()) + ")", first.evidence(), List.of(), null, evidence.dump(first.evidence()));
    }

    static String nanos(final long nanos) {
        if (nanos % 1_000_000 == 0 && nanos != 0) {
            return nanos / 1_000_000 + " ms";
        }
        if (nanos % 1000 == 0 && nanos != 0) {
            return nanos / 1000 + " us";
        }
        return nanos + " ns";
    }
}
