package org.metaroce.mrct.harness.engine;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.metaroce.mrct.harness.cases.Expr;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.Peer;

/**
 * What a case's setup built and its steps use: the connections (by name, by the harness's QPN and by the device's),
 * the regions, the addresses expressions can name, and, in requester cases, the harness's peer and the network to it.
 */
final class CaseWorld {
    private final Names names;
    private final Map<String, Connection> connections = new LinkedHashMap<>();
    private final Map<String, Connection> connectionsView = Collections.unmodifiableMap(connections);
    private final Map<Integer, Connection> byPeerQpn = new HashMap<>();
    private final Map<Integer, Connection> byDeviceQpn = new HashMap<>();
    private final Map<String, Region> regions = new LinkedHashMap<>();
    private final Map<String, Region> regionsView = Collections.unmodifiableMap(regions);
    private final java.util.Set<Integer> invalidatedRkeys = new java.util.HashSet<>();
    private final Map<String, byte[]> addresses = new HashMap<>();
    private final Function<String, byte[]> addressLookup = addresses::get;
    private final Map<String, Expr> indexExpressions = new HashMap<>();
    private Peer peer;
    private Network network;

    CaseWorld(final Names names) {
        this.names = names;
    }

    // ---------------------------------------------------------------- built by the setup

    void add(final Connection connection) {
        connections.put(connection.name, connection);
        byPeerQpn.put(connection.peerQpn, connection);
        byDeviceQpn.put(connection.deviceQpn, connection);
        addresses.put(connection.name + ".harness_ip", connection.toDevice.sourceIp());
        addresses.put(connection.name + ".device_ip", connection.toDevice.destinationIp());
    }

    void add(final Region region) {
        regions.put(region.name, region);
    }

    void open(final Peer newPeer, final Network newNetwork) {
        peer = newPeer;
        network = newNetwork;
    }

    // ---------------------------------------------------------------- looked up by the steps

    /** Whether a connection already has the harness QPN {@code qpn}. */
    boolean hasPeerQpn(final int qpn) {
        return byPeerQpn.containsKey(qpn);
    }

    /** The connection a frame from the device to harness QPN {@code qpn} belongs to, or null. */
    Connection byPeerQpn(final int qpn) {
        return byPeerQpn.get(qpn);
    }

    /** The connection a frame to device QPN {@code qpn} belongs to, or null. */
    Connection byDeviceQpn(final int qpn) {
        return byDeviceQpn.get(qpn);
    }

    /**
     * The connection called {@code name}; {@code q[i + 1]} names a QP of a connection with a count by an expression.
     *
     * @throws IllegalArgumentException when there is none
     */
    Connection connection(final String name) {
        Connection c = connections.get(name);
        final int open = name.indexOf('[');
        if (c == null && open > 0 && name.endsWith("]")) {
            final long index = names.eval(indexExpressions.computeIfAbsent(name,
                n -> Expr.parse(n.substring(open + 1, n.length() - 1))));
            c = connections.get(name.substring(0, open) + "[" + index + "]");
        }
        if (c == null) {
            throw new IllegalArgumentException("no connection '" + name + "'");
        }
        return c;
    }

    /** The connection of a template or step, or null when it names none. */
    Connection connectionOrNull(final String name) {
        return name == null ? null : connection(name);
    }

    /** The connection called exactly {@code name}, or null (no index expressions). */
    Connection exactly(final String name) {
        return connections.get(name);
    }

    /** The connection called {@code name}, or the first QP ({@code name[0]}) of a connection with a count. */
    Connection firstNamed(final String name) {
        final Connection c = connections.get(name);
        return c != null ? c : connections.get(name + "[0]");
    }

    /** Every connection by name, in creation order (read-only). */
    Map<String, Connection> connections() {
        return connectionsView;
    }

    /** The region called {@code name}, or null. */
    Region region(final String name) {
        return regions.get(name);
    }

    /** Every region by name (read-only). */
    Map<String, Region> regions() {
        return regionsView;
    }

    /** Records that the case invalidated {@code rkey} through the control plane (it names no region from now on). */
    void invalidated(final int rkey) {
        invalidatedRkeys.add(rkey);
    }

    /** The regions on the device whose R_Key the case has not invalidated, as registered. */
    java.util.List<org.metaroce.mrct.spi.MemoryRegion> validDeviceRegions() {
        return regions.values().stream().filter(r -> !r.onPeer && !invalidatedRkeys.contains(r.mr.rkey()))
            .map(r -> r.mr).toList();
    }

    /** The addresses expressions name ({@code q.harness_ip}, {@code q.device_ip}), as a lookup. */
    Function<String, byte[]> addresses() {
        return addressLookup;
    }

    /** The harness's peer (requester cases through the network), or null. */
    Peer peer() {
        return peer;
    }

    /** The network between the device and the peer, or null. */
    Network network() {
        return network;
    }

    /** The control plane that owns {@code region}: the peer's or the device's. */
    ControlPlane controlOf(final Region region, final ControlPlane device) {
        return region.onPeer ? peer.control() : device;
    }
}
