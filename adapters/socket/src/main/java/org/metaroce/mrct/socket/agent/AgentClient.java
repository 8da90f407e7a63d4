package org.metaroce.mrct.socket.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.metaroce.mrct.socket.internal.Codec;
import org.metaroce.mrct.socket.internal.Codec.BadRequest;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.AdapterException;
import org.metaroce.mrct.spi.Capability;
import org.metaroce.mrct.spi.Completion;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.DeviceIdentity;
import org.metaroce.mrct.spi.DeviceTimeline;
import org.metaroce.mrct.spi.MemoryRegion;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.spi.ReceiveWqe;
import org.metaroce.mrct.spi.RejectedException;
import org.metaroce.mrct.spi.SendWqe;
import org.metaroce.mrct.wire.MacAddress;

/**
 * The harness's side of the control-agent protocol: a {@link ControlPlane} whose calls travel to an agent over TCP.
 * An answer {@code rejected} is thrown again as {@link RejectedException} and {@code unsupported} as
 * {@link UnsupportedOperationException}; everything about the connection (refused, closed, no answer in time) and
 * every other error is an {@link AdapterException} with a message saying which. After a failure the next call
 * connects again (a bounded number of attempts with growing pauses, then {@code hello} again), so one lost connection
 * costs the current case only. Calls are serialised; one client is used by one harness thread.
 */
public final class AgentClient implements ControlPlane, AutoCloseable {
    private final InetSocketAddress address;
    private final String token;
    private final Duration timeout;
    private final int connectAttempts;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private AgentServer.LineReader lines;
    private long nextId = 1;
    private AgentInfo info;
    private int connects;
    private boolean timelineOffered;

    /**
     * @param address where the agent listens
     * @param token the shared token, or null
     * @param timeout how long one answer may take
     * @param connectAttempts connection attempts per (re)connection, with pauses of 100 ms doubling up to 1 s
     */
    public AgentClient(final InetSocketAddress address, final String token, final Duration timeout,
                       final int connectAttempts) {
        this.address = address;
        this.token = token;
        this.timeout = timeout;
        this.connectAttempts = Math.max(1, connectAttempts);
    }

    /** Connects (if needed) and returns what the agent's {@code hello} said. */
    public synchronized AgentInfo hello() {
        ensureConnected();
        return info;
    }

    /** Whether the agent's {@code hello} offered {@code deviceTimeline} ({@value AgentServer#TIMELINE_CAPABILITY}). */
    public synchronized boolean offersDeviceTimeline() {
        ensureConnected();
        return timelineOffered;
    }

    /**
     * What the device reports about its own timeline since the last reset (only where {@link #offersDeviceTimeline()}).
     */
    public DeviceTimeline deviceTimeline() {
        final JsonNode result = request(AgentServer.TIMELINE_OPERATION, Codec.object());
        for (final String name : new String[] {"worst_late_ns", "late_events", "capture_drops"}) {
            if (!result.path(name).isIntegralNumber() || result.path(name).asLong() < 0) {
                throw new AdapterException(where() + " answered " + AgentServer.TIMELINE_OPERATION + " with " + name
                    + " = " + result.get(name) + ", not a count");
            }
        }
        return new DeviceTimeline(result.path("worst_late_ns").asLong(), result.path("worst").asText(""),
            result.path("late_events").asLong(), result.path("capture_drops").asLong());
    }

    /** Connections made so far (1 plus the reconnections). */
    public synchronized int connections() {
        return connects;
    }

    private String where() {
        return "agent " + address.getHostString() + ":" + address.getPort();
    }

    private void ensureConnected() {
        if (socket != null) {
            return;
        }
        IOException last = null;
        long pause = 100;
        for (int attempt = 1; attempt <= connectAttempts; attempt++) {
            try {
                final Socket s = new Socket();
                s.connect(address, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
                s.setTcpNoDelay(true);
                s.setSoTimeout((int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis())));
                socket = s;
                in = new BufferedInputStream(s.getInputStream(), 65_536);
                out = new BufferedOutputStream(s.getOutputStream(), 65_536);
                lines = new AgentServer.LineReader(in, Integer.MAX_VALUE - 8);
                connects++;
                info = parseHello(call("hello", helloArgs()));
                return;
            } catch (IOException e) {
                last = e;
                disconnect();
            } catch (AdapterException e) {
                disconnect();
                throw e;
            }
            if (attempt < connectAttempts) {
                try {
                    Thread.sleep(pause);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
                pause = Math.min(1000, pause * 2);
            }
        }
        throw new AdapterException("cannot reach the " + where() + " after " + connectAttempts + " attempt(s): "
            + describe(last));
    }

    private static String describe(final IOException e) {
        if (e == null) {
            return "interrupted";
        }
        if (e instanceof ConnectException) {
            return "connection refused (is mrct serve or the vendor's agent running there?)";
        }
        if (e instanceof SocketTimeoutException) {
            return "no answer (timed out)";
        }
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    private ObjectNode helloArgs() {
        final ObjectNode args = Codec.object();
        args.put("version", AgentServer.VERSION);
        if (token != null) {
            args.put("token", token);
        }
        args.put("client", "mrct");
        return args;
    }

    private AgentInfo parseHello(final JsonNode result) {
        try {
            final int version = result.path("version").asInt(0);
            if (version != AgentServer.VERSION) {
                throw new AdapterException(where() + " speaks protocol version " + version + ", mrct speaks "
                    + AgentServer.VERSION);
            }
            final JsonNode identity = result.path("identity");
            final JsonNode endpoints = result.path("endpoints");
            final long mac = MacAddress.parse(endpoints.path("mac").asText(""));
            if (mac < 0) {
                throw new BadRequest("endpoints.mac is not a MAC: " + endpoints.get("mac"));
            }
            final Set<Capability> capabilities = EnumSet.noneOf(Capability.class);
            boolean timeline = false;
            for (final JsonNode label : result.path("capabilities")) {
                final Capability capability = Capability.byLabel(label.asText());
                if (capability != null) {
                    capabilities.add(capability);
                }
                timeline |= AgentServer.TIMELINE_CAPABILITY.equals(label.asText());
            }
            timelineOffered = timeline;
            return new AgentInfo(version, new DeviceIdentity(identity.path("vendor").asText("unknown"),
                identity.path("model").asText("unknown"), identity.path("firmware").asText("unknown")), mac,
                text(endpoints, "ipv4"), text(endpoints, "ipv6"), capabilities);
        } catch (BadRequest e) {
            throw new AdapterException(where() + " answered hello with something mrct cannot read: " + e.getMessage());
        }
    }

    private static String text(final JsonNode node, final String name) {
        final JsonNode value = node.get(name);
        return value == null || value.isNull() || value.asText().isEmpty() ? null : value.asText();
    }

    /** Sends one request and returns its {@code result}; reconnects first when the connection was lost. */
    private synchronized JsonNode request(final String op, final ObjectNode args) {
        ensureConnected();
        try {
            return call(op, args);
        } catch (IOException e) {
            disconnect();
            throw new AdapterException(where() + ": " + (e instanceof SocketTimeoutException ? "no answer to " + op
                + " within " + timeout.toMillis() + " ms" : "connection lost during " + op + ": " + describe(e)), e);
        }
    }

    private JsonNode call(final String op, final ObjectNode args) throws IOException {
        final long id = nextId++;
        final ObjectNode request = Codec.object();
        request.put("id", id);
        request.put("op", op);
        request.set("args", args);
        out.write(Codec.JSON.writeValueAsBytes(request));
        out.write('\n');
        out.flush();
        final byte[] line = lines.next();
        if (line == null) {
            throw new java.io.EOFException("the agent closed the connection");
        }
        final JsonNode answer;
        try {
            answer = Codec.JSON.readTree(line);
        } catch (IOException e) {
            disconnect();
            throw new AdapterException(where() + " answered " + op + " with malformed JSON: " + e.getMessage());
        }
        if (answer == null || !answer.isObject() || answer.path("id").asLong(-1) != id) {
            disconnect();
            throw new AdapterException(where() + " answered " + op + " (id " + id + ") out of turn: " + abbreviate(
                new String(line, java.nio.charset.StandardCharsets.UTF_8)));
        }
        if (answer.path("ok").asBoolean(false)) {
            final JsonNode result = answer.get("result");
            return result == null || result.isNull() ? Codec.object() : result;
        }
        final JsonNode error = answer.path("error");
        final ErrorType type = ErrorType.byLabel(error.path("type").asText(""));
        final String message = error.path("message").asText("(no message)");
        switch (type) {
            case REJECTED:
                throw new RejectedException(message);
            case UNSUPPORTED:
                throw new UnsupportedOperationException(message);
            case AUTH:
                disconnect();
                throw new AdapterException(where() + " refused " + op + ": " + message
                    + (token == null ? " (give the agent's token with --token)" : ""));
            default:
                throw new AdapterException(where() + " answered " + op + " with " + type.label() + ": " + message);
        }
    }

    private static String abbreviate(final String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }

    private void disconnect() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // gone anyway
            }
        }
        socket = null;
        in = null;
        out = null;
        lines = null;
    }

    @Override
    public synchronized void close() {
        disconnect();
    }

    // ------------------------------------------------------------------ ControlPlane

    private JsonNode result(final String op, final ObjectNode args, final String field) {
        final JsonNode result = request(op, args);
        final JsonNode value = result.get(field);
        if (value == null || value.isNull()) {
            throw new AdapterException(where() + " answered " + op + " without '" + field + "': " + result);
        }
        return value;
    }

    private <T> T read(final String op, final java.util.function.Supplier<T> reader) {
        try {
            return reader.get();
        } catch (BadRequest e) {
            throw new AdapterException(where() + " answered " + op + " with something mrct cannot read: "
                + e.getMessage());
        }
    }

    @Override
    public int allocatePd() {
        final JsonNode value = result("allocatePd", Codec.object(), "pd");
        return read("allocatePd", () -> Codec.u32(wrap("pd", value), "pd"));
    }

    private static ObjectNode wrap(final String name, final JsonNode value) {
        final ObjectNode node = Codec.object();
        node.set(name, value);
        return node;
    }

    @Override
    public int createQp(final QpAttributes attributes) {
        final ObjectNode args = Codec.object();
        args.set("attributes", Codec.attributes(attributes));
        final JsonNode value = result("createQp", args, "qpn");
        return read("createQp", () -> Codec.u32(wrap("qpn", value), "qpn"));
    }

    @Override
    public void modifyQp(final int qpn, final QpState state, final QpAttributes attributes) {
        final ObjectNode args = Codec.object();
        args.put("qpn", qpn);
        args.put("state", Codec.lower(state));
        args.set("attributes", Codec.attributes(attributes));
        request("modifyQp", args);
    }

    @Override
    public QpState queryQp(final int qpn) {
        final ObjectNode args = Codec.object();
        args.put("qpn", qpn);
        final JsonNode value = result("queryQp", args, "state");
        return read("queryQp", () -> Codec.state(wrap("state", value), "state"));
    }

    @Override
    public void destroyQp(final int qpn) {
        final ObjectNode args = Codec.object();
        args.put("qpn", qpn);
        request("destroyQp", args);
    }

    @Override
    public MemoryRegion registerMr(final int pd, final long length, final Set<Access> access) {
        final ObjectNode args = Codec.object();
        args.put("pd", pd);
        args.put("length", length);
        args.set("access", Codec.access(access));
        final JsonNode result = request("registerMr", args);
        return read("registerMr", () -> Codec.memoryRegion(result));
    }

    @Override
    public void invalidateRkey(final int rkey) {
        final ObjectNode args = Codec.object();
        args.put("rkey", Integer.toUnsignedLong(rkey));
        request("invalidateRkey", args);
    }

    @Override
    public void deregisterMr(final int lkey) {
        final ObjectNode args = Codec.object();
        args.put("lkey", Integer.toUnsignedLong(lkey));
        request("deregisterMr", args);
    }

    @Override
    public void postReceive(final int qpn, final ReceiveWqe wqe) {
        request("postReceive", Codec.receiveWqe(qpn, wqe));
    }

    @Override
    public void postSend(final int qpn, final SendWqe wqe) {
        request("postSend", Codec.sendWqe(qpn, wqe));
    }

    @Override
    public List<Completion> pollCompletions(final int qpn, final int max) {
        final ObjectNode args = Codec.object();
        args.put("qpn", qpn);
        args.put("max", Math.max(0, Math.min(max, 4096)));
        final JsonNode list = result("pollCompletions", args, "completions");
        return read("pollCompletions", () -> {
            final List<Completion> out = new ArrayList<>();
            for (final JsonNode node : list) {
                out.add(Codec.completion(node));
            }
            return out;
        });
    }

    @Override
    public byte[] readMemory(final long va, final int length) {
        final ObjectNode args = Codec.object();
        args.put("va", Codec.hex64(va));
        args.put("length", length);
        final JsonNode data = result("readMemory", args, "data");
        try {
            final byte[] bytes = Base64.getDecoder().decode(data.asText());
            if (bytes.length != length) {
                throw new AdapterException(where() + " answered readMemory of " + length + " bytes with "
                    + bytes.length);
            }
            return bytes;
        } catch (IllegalArgumentException e) {
            throw new AdapterException(where() + " answered readMemory with data that is not base64");
        }
    }

    @Override
    public void writeMemory(final long va, final byte[] data) {
        final ObjectNode args = Codec.object();
        args.put("va", Codec.hex64(va));
        args.put("data", Base64.getEncoder().encodeToString(data));
        request("writeMemory", args);
    }

    @Override
    public Map<String, Long> counters() {
        return counterMap("counters", request("counters", Codec.object()));
    }

    @Override
    public Map<String, Long> qpCounters(final int qpn) {
        final ObjectNode args = Codec.object();
        args.put("qpn", qpn);
        return counterMap("qpCounters", request("qpCounters", args));
    }

    private Map<String, Long> counterMap(final String op, final JsonNode result) {
        final JsonNode counters = result.get("counters");
        if (counters == null || !counters.isObject()) {
            throw new AdapterException(where() + " answered " + op + " without a 'counters' object");
        }
        final Map<String, Long> out = new LinkedHashMap<>();
        for (final Map.Entry<String, JsonNode> entry : counters.properties()) {
            if (!entry.getValue().isIntegralNumber()) {
                throw new AdapterException(where() + " answered " + op + " with counter " + entry.getKey() + " = "
                    + entry.getValue() + ", not an integer");
            }
            out.put(entry.getKey(), entry.getValue().asLong());
        }
        return out;
    }

    @Override
    public void reset() {
        request("reset", Codec.object());
    }
}
