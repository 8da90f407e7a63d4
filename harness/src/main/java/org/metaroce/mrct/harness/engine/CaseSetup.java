package org.metaroce.mrct.harness.engine;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.metaroce.mrct.harness.cases.AttributeValue;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.cases.ConnectionDef;
import org.metaroce.mrct.harness.cases.Expr;
import org.metaroce.mrct.harness.cases.IpVersion;
import org.metaroce.mrct.harness.cases.RegionDef;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.spec.Parameter;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.harness.spec.Role;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.Capability;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.Endpoints;
import org.metaroce.mrct.spi.MemoryRegion;
import org.metaroce.mrct.spi.Peer;
import org.metaroce.mrct.spi.QpAttribute;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.Psn;

/**
 * Sets a case up before its steps run: binds its parameters (profile, case, table row), opens the harness's peer and
 * the network to it when a connection needs them, creates the connections' QPs (random PSNs and peer QPNs from the
 * case's seed) and registers the regions. What it builds goes into the {@link CaseWorld} and the {@link Names}.
 */
final class CaseSetup {
    private static final Set<QpAttribute> PROFILE_ATTRIBUTES = EnumSet.of(QpAttribute.PMTU, QpAttribute.RECV_WINDOW,
        QpAttribute.SEND_WINDOW, QpAttribute.ACK_REQ_INTERVAL, QpAttribute.RTO_LOW_NS, QpAttribute.RTO_HIGH_NS,
        QpAttribute.N_LOW, QpAttribute.REORDER_THRESHOLD, QpAttribute.REORDER_TIME_NS, QpAttribute.RETRY_CNT,
        QpAttribute.RNR_RETRY, QpAttribute.MIN_RNR_TIMER, QpAttribute.MAX_RD_ATOMIC, QpAttribute.MAX_DEST_RD_ATOMIC,
        QpAttribute.LINE_RATE_MBPS, QpAttribute.DCQCN_ALPHA_TIMER_NS, QpAttribute.DCQCN_RATE_TIMER_NS,
        QpAttribute.DCQCN_BYTE_COUNTER, QpAttribute.DCQCN_F, QpAttribute.DCQCN_RAI_MBPS, QpAttribute.DCQCN_RHAI_MBPS,
        QpAttribute.DCQCN_MIN_RATE_MBPS);

    private final RunContext run;
    private final CaseDef def;
    private final long caseSeed;
    private final ControlPlane control;
    private final Endpoints endpoints;
    private final Names names;
    private final CaseWorld world;
    private QpAttributes profileAttributes;
    private RealTimeTimers timers = RealTimeTimers.none();
    private final Map<Boolean, Encapsulation> baseEncapsulations = new HashMap<>();

    CaseSetup(final RunContext run, final CaseDef def, final long caseSeed, final ControlPlane control,
              final Names names, final CaseWorld world) {
        this.run = run;
        this.def = def;
        this.caseSeed = caseSeed;
        this.control = control;
        this.endpoints = run.adapter().endpoints();
        this.names = names;
        this.world = world;
    }

    // ---------------------------------------------------------------- parameters

    /**
     * Binds the profile's parameters, the seed, the PICS claims ({@code pics.atomics} 1 when claimed, else 0; a hyphen
     * in an item's name is an underscore), the case's parameters and the table row, in that order.
     */
    void bindParameters(final Map<String, Expr> row) {
        names.bindAll(run.profile().numericParameters(run.spec()));
        names.bindAll(enumerationIndices(run.profile(), run.spec()));
        names.bind("seed", caseSeed);
        for (final org.metaroce.mrct.harness.spec.PicsItem item : run.spec().picsItems()) {
            names.bind(StepDispatch.picsName(item.name()), run.profile().pics().contains(item.name()) ? 1 : 0);
        }
        for (final Map.Entry<String, Expr> entry : def.params().entrySet()) {
            names.bind(entry.getKey(), names.eval(entry.getValue()));
        }
        for (final Map.Entry<String, Expr> entry : row.entrySet()) {
            names.bind(entry.getKey(), names.eval(entry.getValue()));
        }
        for (final String name : def.params().keySet()) {
            allowed(name, names.bound(name), "the case sets");
        }
        for (final Expr condition : def.requires()) {
            if (names.eval(condition) == 0) {
                throw new OutsideProfile("the case's expectations assume " + condition + ", which the profile's "
                    + "parameters do not meet");
            }
        }
        for (final String name : row.keySet()) {
            allowed(name, names.bound(name), "the table row sets");
        }
        if (def.role() == Role.REQUESTER && !run.adapter().capabilities().contains(Capability.VIRTUAL_TIME)) {
            timers = RealTimeTimers.forCase(names.bound(), run.toleranceNs());
            timers.apply(names);
        }
    }

    /** The scaling of the device's requester timers on a real-time adapter (after {@link #bindParameters}). */
    RealTimeTimers timers() {
        return timers;
    }

    /**
     * Throws {@link OutsideProfile} when {@code value} of the parameter (or the QP attribute of the same name) {@code
     * name} is outside its Table B-1 range under the profile's declared parameters and the case's own values: a legal
     * device need not accept it (MR-CONF-002), so the case does not apply to that profile.
     */
    private void allowed(final String name, final Long value, final String who) {
        allowed(name, value, who, Map.of());
    }

    /** As above, a bound naming another parameter taken first from {@code own} (the connection's own attributes). */
    private void allowed(final String name, final Long value, final String who, final Map<String, Long> own) {
        final Parameter parameter = run.spec().parameter(name);
        if (parameter == null || value == null || !parameter.isNumeric()) {
            return;
        }
        final Map<String, Object> declared = run.profile().effectiveParameters(run.spec());
        final String problem = parameter.check(value, other -> {
            if (own.containsKey(other)) {
                return own.get(other);
            }
            final Long bound = names.bound(other);
            return bound != null && declared.get(other) instanceof Long ? bound : declared.get(other);
        });
        if (problem != null) {
            throw new OutsideProfile(who + " " + name + " to " + value + ", which the profile's declared "
                + "parameters do not allow (" + problem + "; Table B-1)");
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

    // ---------------------------------------------------------------- peer and network

    /** Creates the peer and the network when the case has a connection whose harness end is a peer device. */
    void openPeer(final long start) {
        if (def.connections().stream().noneMatch(ConnectionDef::peer)) {
            return;
        }
        final Set<String> pics = new LinkedHashSet<>();
        run.spec().picsItems().forEach(item -> pics.add(item.name()));
        final Peer peer = run.peers().create(endpoints, run.profile().effectiveParameters(run.spec()), pics);
        peer.reset(run.adapter().dataPlane().now());
        world.open(peer, new Network(peer, start, caseSeed));
    }

    // ---------------------------------------------------------------- connections and regions

    /** Creates every connection (each QP of one with a count), then registers every region. */
    void createConnectionsAndRegions() {
        final SplittableRandom random = new SplittableRandom(caseSeed);
        long qps = 0;
        for (final ConnectionDef cd : def.connections()) {
            qps += cd.count() == null ? 1 : Math.max(0, names.eval(cd.count()));
        }
        final Long maxQp = names.bound("max_qp");
        if (maxQp != null && qps > maxQp) {
            throw new OutsideProfile("the case needs " + qps + " QPs at once and the profile declares max_qp " + maxQp
                + " (Table B-1)");
        }
        for (final ConnectionDef cd : def.connections()) {
            final int count = cd.count() == null ? 1 : (int) names.eval(cd.count());
            for (int k = 0; k < count; k++) {
                final String name = count == 1 ? cd.name() : cd.name() + "[" + k + "]";
                createConnection(cd, name, random);
            }
        }
        for (final RegionDef rd : def.regions()) {
            registerRegion(rd);
        }
    }

    private void registerRegion(final RegionDef rd) {
        final Connection owner = rd.connection() != null ? world.firstNamed(rd.connection())
            : rd.onPeer() ? world.connections().values().stream().filter(c -> c.peer).findFirst().orElse(null)
            : world.connections().values().iterator().next();
        if (owner == null && rd.connection() != null) {
            throw new IllegalArgumentException("region " + rd.name() + ": no connection '" + rd.connection() + "'");
        }
        if (rd.onPeer() && (owner == null || !owner.peer)) {
            throw new IllegalArgumentException("region " + rd.name() + " is on the peer, so its connection must "
                + "be a peer connection");
        }
        final ControlPlane side = rd.onPeer() ? world.peer().control() : control;
        final int pd = rd.ownPd() ? side.allocatePd() : rd.onPeer() ? owner.peerPd : owner.pd;
        final Set<Access> access = rd.access();
        final long length = names.eval(rd.length());
        final MemoryRegion mr = side.registerMr(pd, length, access);
        byte[] initial = new byte[(int) length];
        if (rd.fill() != null) {
            initial = rd.fill().bytes(0, (int) length, names.resolver());
            side.writeMemory(mr.va(), initial);
        }
        world.add(new Region(rd.name(), mr, initial, rd.onPeer()));
        names.bind(rd.name() + ".va", mr.va());
        names.bind(rd.name() + ".rkey", Integer.toUnsignedLong(mr.rkey()));
        names.bind(rd.name() + ".lkey", Integer.toUnsignedLong(mr.lkey()));
        names.bind(rd.name() + ".length", mr.length());
    }

    private void createConnection(final ConnectionDef cd, final String name, final SplittableRandom random) {
        final boolean ipv6 = cd.network() == IpVersion.IPV6;
        final int pd = cd.pd() != null ? sharedPd(cd.pd()) : control.allocatePd();
        int peerQpn = 0x100 + random.nextInt(0xFFFF00);
        while (world.hasPeerQpn(peerQpn)) {
            peerQpn = 0x100 + random.nextInt(0xFFFF00); // scale cases: every connection needs its own peer QPN
        }
        final int psnBase = cd.psn() != null ? (int) (names.eval(cd.psn()) & Psn.MASK) : random.nextInt(Psn.MODULUS);
        final int devicePsnBase = cd.devicePsn() != null ? (int) (names.eval(cd.devicePsn()) & Psn.MASK)
            : random.nextInt(Psn.MODULUS);
        final Peer peer = world.peer();
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
        final Map<String, Long> numeric = new LinkedHashMap<>();
        for (final Map.Entry<QpAttribute, AttributeValue> entry : cd.attributes().entrySet()) {
            final Object value = RealTimeTimers.isTimer(entry.getKey())
                && entry.getValue() instanceof AttributeValue.Numeric timer
                ? (Object) timers.attribute(timer.value(), names) : entry.getValue().resolve(names::eval);
            if (value instanceof Long number) {
                numeric.put(entry.getKey().label(), number);
            }
            fromCase = fromCase.with(entry.getKey(), value);
        }
        for (final Map.Entry<String, Long> entry : numeric.entrySet()) {
            allowed(entry.getKey(), entry.getValue(), "connection " + cd.name() + " sets", numeric);
        }
        QpAttributes attributes = withinCaseBounds(profileAttributes(), fromCase).with(own).with(fromCase);
        Encapsulation encapsulation = baseEncapsulations.computeIfAbsent(ipv6, v6 -> (v6
            ? Encapsulation.ipv6(harnessIp, deviceIp) : Encapsulation.ipv4(harnessIp, deviceIp))
            .withMacs(endpoints.harnessMac(), endpoints.deviceMac())
            .withDscp((int) names.bound("data_dscp", 26L)))
            .withUdpSourcePort(0xC000 | (peerQpn & 0x3FFF));
        if (cd.vlan() != null) {
            final int vlan = (int) names.eval(cd.vlan());
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
            attributes.getInt(QpAttribute.PMTU, 1024), attributes.getInt(QpAttribute.RECV_WINDOW, 128), cd.peer(),
            peerPd);
        connection.createdWith(attributes);
        world.add(connection);
        if (cd.peer()) {
            world.network().add(connection);
        }
        if (name.equals(cd.name())) { // the QPs of a connection with a count (q[i]) have no names in expressions
            names.bind(name + ".qpn", qpn);
            names.bind(name + ".peer_qpn", peerQpn);
            names.bind(name + ".psn", psnBase);
            names.bind(name + ".device_psn", devicePsnBase);
            names.bind(name + ".pmtu", connection.pmtu);
        }
    }

    /**
     * Attributes bounded by another one (Table B-1: ack_req_interval and n_low at most send_window, reorder_time_ns
     * at most rto_low_ns, rto_low_ns at most rto_high_ns) that the case leaves at the profile's value are lowered to
     * the bound the case sets: a case that gives its QP send_window 16 gets ack_req_interval min(profile's, 16), as
     * any application setting send_window alone would have to, instead of a combination the device may refuse.
     */
    private static QpAttributes withinCaseBounds(final QpAttributes profile, final QpAttributes fromCase) {
        QpAttributes out = profile;
        final QpAttribute[][] bounded = {
            {QpAttribute.ACK_REQ_INTERVAL, QpAttribute.SEND_WINDOW}, {QpAttribute.N_LOW, QpAttribute.SEND_WINDOW},
            {QpAttribute.RTO_LOW_NS, QpAttribute.RTO_HIGH_NS}, {QpAttribute.REORDER_TIME_NS, QpAttribute.RTO_LOW_NS}};
        for (final QpAttribute[] pair : bounded) {
            final QpAttributes bounds = out.with(fromCase);
            if (!fromCase.has(pair[0]) && out.has(pair[0]) && bounds.has(pair[1])
                && out.getLong(pair[0], 0) > bounds.getLong(pair[1], Long.MAX_VALUE)) {
                out = out.with(pair[0], bounds.getLong(pair[1], 0));
            }
        }
        return out;
    }

    /**
     * The attributes of the peer's QP: addressed to the device, with the device's PSN spaces mirrored, a receive window
     * as large as the device's send window, a max_dest_rd_atomic at least the device's max_rd_atomic (Table B-2: a
     * requester's value is at most its peer's), and the case's {@code peer_attrs} on top. PMTU, TVer and P_Key follow
     * the device's QP when the peer's QP enters RTR.
     */
    private QpAttributes peerAttributes(final ConnectionDef cd, final boolean ipv6, final int pd, final int psnBase,
                                        final int devicePsnBase) {
        QpAttributes attributes = QpAttributes.empty().with(QpAttribute.PD, pd)
            .with(QpAttribute.DEST_IP, ipv6 ? endpoints.deviceIpv6() : endpoints.deviceIpv4())
            .with(QpAttribute.DEST_MAC, endpoints.deviceMac()).with(QpAttribute.RQ_PSN, devicePsnBase)
            .with(QpAttribute.SQ_PSN, psnBase)
            .with(QpAttribute.RECV_WINDOW, Math.max(names.bound("send_window", 128L),
                cd.attributes().get(QpAttribute.SEND_WINDOW) instanceof AttributeValue.Numeric window
                    ? names.eval(window.value()) : 0))
            .with(QpAttribute.MAX_DEST_RD_ATOMIC, Math.max(Math.max(names.bound("max_dest_rd_atomic", 16L),
                names.bound("max_rd_atomic", 16L)),
                cd.attributes().get(QpAttribute.MAX_RD_ATOMIC) instanceof AttributeValue.Numeric depth
                    ? names.eval(depth.value()) : 0))
            .with(QpAttribute.ACCESS, Set.of(Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC));
        if (cd.vlan() != null) {
            attributes = attributes.with(QpAttribute.VLAN, (int) names.eval(cd.vlan()));
        }
        for (final Map.Entry<QpAttribute, AttributeValue> entry : cd.peerAttributes().entrySet()) {
            attributes = attributes.with(entry.getKey(), entry.getValue().resolve(names::eval));
        }
        return attributes;
    }

    /** The QP attributes taken from the profile and the case's parameters (the same for every connection). */
    private QpAttributes profileAttributes() {
        if (profileAttributes == null) {
            QpAttributes attributes = QpAttributes.empty();
            for (final QpAttribute attribute : PROFILE_ATTRIBUTES) {
                final Long value = names.bound(attribute.label());
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
        final Connection owner = world.firstNamed(name);
        if (owner == null) {
            throw new IllegalArgumentException("pd: no earlier connection '" + name + "' to share a PD with");
        }
        return owner.pd;
    }
}
