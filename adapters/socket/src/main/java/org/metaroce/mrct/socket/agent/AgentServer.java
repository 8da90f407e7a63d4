package org.metaroce.mrct.socket.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.metaroce.mrct.socket.internal.Codec;
import org.metaroce.mrct.socket.internal.Codec.BadRequest;
import org.metaroce.mrct.spi.Capability;
import org.metaroce.mrct.spi.Completion;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.DeviceTimeline;
import org.metaroce.mrct.spi.MemoryRegion;
import org.metaroce.mrct.spi.RejectedException;
import org.metaroce.mrct.wire.MacAddress;

/**
 * The control agent: serves one device's {@link ControlPlane} to harnesses over TCP with the JSON-lines protocol of
 * PROTOCOL.md. One thread accepts, one thread serves each connection; calls reach the device one at a time (the
 * device is not asked to be thread-safe). Every request gets exactly one answer: malformed JSON, an unknown op, a
 * wrong argument or a request beyond the {@link AgentLimits limits} is answered with an error and the connection goes
 * on; a client that misbehaves or vanishes never stops the agent or its other clients.
 *
 * <p>Before a successful {@code hello} every request is refused with {@code auth}. When the agent has a token,
 * {@code hello} must carry it (compared in constant time); an agent listening beyond loopback must have one.
 *
 * <p>Connections that have not said {@code hello} never take a client's place: they wait in a pool of their own
 * ({@link #MAX_GREETING} at most; a new one pushes the oldest out) and must say {@code hello} within
 * {@link #HELLO_TIMEOUT_MILLIS}, so idle or hostile connections cannot lock the token holder out. Only a successful
 * {@code hello} takes one of the {@code maxClients} places.
 */
public final class AgentServer implements AutoCloseable {
    /** The protocol version this agent speaks. */
    public static final int VERSION = 1;
    /** Connections waiting to say {@code hello} at once; one more closes the oldest of them. */
    public static final int MAX_GREETING = 8;
    /** The {@code hello} capability of agents that answer {@link #TIMELINE_OPERATION}. */
    public static final String TIMELINE_CAPABILITY = "device-timeline";
    /** The operation a software device answers with its own timeline since the last reset ({@link DeviceTimeline}). */
    public static final String TIMELINE_OPERATION = "deviceTimeline";
    /** How long a connection may take to say {@code hello} before it is closed. */
    public static final int HELLO_TIMEOUT_MILLIS = 5_000;

    private final ControlPlane device;
    private final AgentInfo info;
    private final AgentLimits limits;
    private final byte[] token;
    private final Consumer<String> log;
    private final Object deviceLock = new Object();
    private final Set<Integer> liveQps = new HashSet<>();
    private final Map<Integer, Long> liveRegions = new HashMap<>();
    private final Set<Socket> clients = ConcurrentHashMap.newKeySet();
    /** Connections that have not said hello yet, oldest first (guarded by itself). */
    private final java.util.LinkedHashMap<Socket, Integer> greeting = new java.util.LinkedHashMap<>();
    private final AtomicInteger connectionCount = new AtomicInteger();
    private long mrBytes;
    private volatile java.util.function.LongConsumer barrier = arrival -> { };
    private volatile java.util.function.Supplier<DeviceTimeline> timeline;
    private ServerSocket server;
    private Thread acceptor;
    private volatile boolean closed;

    /**
     * @param device the device's control plane (called from one thread at a time)
     * @param info what {@code hello} answers
     * @param limits what peers may ask for
     * @param token the shared secret {@code hello} must carry, or null for none (loopback only)
     * @param log where one line per client connection goes
     */
    public AgentServer(final ControlPlane device, final AgentInfo info, final AgentLimits limits, final String token,
                       final Consumer<String> log) {
        this.device = device;
        this.info = info;
        this.limits = limits;
        this.token = token == null || token.isEmpty() ? null : token.getBytes(StandardCharsets.UTF_8);
        this.log = log;
    }

    /**
     * Binds {@code listen} and starts serving; returns the address bound (port 0 picks a free one).
     *
     * @throws IllegalArgumentException when the address is not loopback and the agent has no token
     */
    public InetSocketAddress start(final InetSocketAddress listen) throws IOException {
        if (token == null && !listen.getAddress().isLoopbackAddress()) {
            throw new IllegalArgumentException("an agent listening on " + listen.getAddress().getHostAddress()
                + " (not loopback) needs a shared token");
        }
        server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(listen, 16);
        acceptor = new Thread(this::accept, "mrct-agent-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        return address();
    }

    /** The address the agent listens on. */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    /**
     * Sets what every request waits for before it reaches the device, given its arrival time (nanoseconds since the
     * epoch): an agent in front of a device that takes its frames from a capture uses it to let every frame that came
     * before the request reach the device first, so that a request never overtakes the frames sent before it
     * (PROTOCOL.md, "Ordering").
     */
    public AgentServer withBarrier(final java.util.function.LongConsumer value) {
        this.barrier = value;
        return this;
    }

    /**
     * Makes the agent answer {@code deviceTimeline} with what {@code value} says (a software device reporting how far
     * it fell behind its own timeline since the last reset), and list {@value AgentServer#TIMELINE_CAPABILITY} in
     * {@code hello}. Only a device whose lateness is its host's, not its design's, has a reason to offer it.
     */
    public AgentServer withDeviceTimeline(final java.util.function.Supplier<DeviceTimeline> value) {
        this.timeline = value;
        return this;
    }

    /** Whether a token is demanded. */
    public boolean requiresToken() {
        return token != null;
    }

    /** Connections accepted so far. */
    public int connections() {
        return connectionCount.get();
    }

    private void accept() {
        while (!closed) {
            final Socket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    log.accept("agent: accept failed: " + e.getMessage());
                }
                return;
            }
            final int number = connectionCount.incrementAndGet();
            final String peer = peer(socket);
            final Map.Entry<Socket, Integer> pushedOut;
            synchronized (greeting) {
                pushedOut = greeting.size() >= MAX_GREETING ? greeting.entrySet().iterator().next() : null;
                if (pushedOut != null) {
                    greeting.remove(pushedOut.getKey());
                }
                greeting.put(socket, number);
            }
            if (pushedOut != null) {
                log.accept("agent: client #" + pushedOut.getValue() + " closed: " + MAX_GREETING + " connections were "
                    + "waiting to say hello and another came");
                closeQuietly(pushedOut.getKey());
            }
            final Thread thread = new Thread(() -> serve(socket, number, peer), "mrct-agent-client-" + number);
            thread.setDaemon(true);
            thread.start();
        }
    }

    /**
     * A connection said hello: it takes a client's place, or false when all {@code maxClients} are taken (it is then
     * answered with a {@code limit} error and closed).
     */
    private boolean admit(final Socket socket) {
        synchronized (greeting) {
            greeting.remove(socket);
            if (clients.size() >= limits.maxClients()) {
                return false;
            }
            clients.add(socket);
            return true;
        }
    }

    private static void closeQuietly(final Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    private static String peer(final Socket socket) {
        return socket.getInetAddress().getHostAddress() + ":" + socket.getPort();
    }

    /** One connection's state. */
    private static final class Session {
        boolean authenticated;
        int requests;
        int errors;
    }

    private void serve(final Socket socket, final int number, final String peer) {
        final long started = System.nanoTime();
        final Session session = new Session();
        String end = "closed by the client";
        log.accept("agent: client #" + number + " " + peer + " connected");
        try (socket) {
            socket.setTcpNoDelay(true);
            final InputStream in = new BufferedInputStream(socket.getInputStream(), 65_536);
            final OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 65_536);
            socket.setSoTimeout(HELLO_TIMEOUT_MILLIS);
            final LineReader lines = new LineReader(in, limits.maxLineBytes());
            while (!closed) {
                final byte[] line = lines.next();
                if (line == null) {
                    break;
                }
                final long arrival = org.metaroce.mrct.socket.link.WallClock.nanos();
                final boolean wasAuthenticated = session.authenticated;
                ObjectNode answer = line == LineReader.TOO_LONG
                    ? error(null, ErrorType.LIMIT, "request line longer than " + limits.maxLineBytes() + " bytes")
                    : answer(line, session, arrival);
                boolean full = false;
                if (!wasAuthenticated && session.authenticated) {
                    if (admit(socket)) {
                        socket.setSoTimeout(0);
                    } else {
                        full = true;
                        answer = error(answer.path("id").isIntegralNumber() ? answer.get("id").asLong() : null,
                            ErrorType.LIMIT, "the agent serves at most " + limits.maxClients() + " clients at once");
                        end = "refused: " + limits.maxClients() + " clients are connected already";
                    }
                }
                session.requests++;
                if (!answer.path("ok").asBoolean(false)) {
                    session.errors++;
                }
                out.write(Codec.JSON.writeValueAsBytes(answer));
                out.write('\n');
                out.flush();
                if (full) {
                    break;
                }
            }
        } catch (java.net.SocketTimeoutException e) {
            end = "no hello within " + HELLO_TIMEOUT_MILLIS + " ms";
        } catch (SocketException e) {
            end = closed ? "agent stopping" : "connection lost: " + e.getMessage();
        } catch (IOException e) {
            end = "connection lost: " + e.getMessage();
        } finally {
            synchronized (greeting) {
                greeting.remove(socket);
                clients.remove(socket);
            }
        }
        log.accept("agent: client #" + number + " " + peer + " disconnected (" + end + ") after " + session.requests
            + " request(s), " + session.errors + " error(s), " + (System.nanoTime() - started) / 1_000_000 + " ms");
    }

    /** The answer to one request line; never throws. */
    ObjectNode answer(final byte[] line, final Session session, final long arrival) {
        final JsonNode request;
        try {
            request = Codec.JSON.readTree(line);
        } catch (JsonProcessingException e) {
            return error(null, ErrorType.BAD_REQUEST, "malformed JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            return error(null, ErrorType.BAD_REQUEST, "unreadable request: " + e.getMessage());
        }
        if (request == null || !request.isObject()) {
            return error(null, ErrorType.BAD_REQUEST, "a request is a JSON object {\"id\": N, \"op\": ..., "
                + "\"args\": {...}}");
        }
        final JsonNode idNode = request.get("id");
        if (idNode == null || !idNode.isIntegralNumber() || !idNode.canConvertToLong()) {
            return error(null, ErrorType.BAD_REQUEST, "'id' must be an integer");
        }
        final long id = idNode.asLong();
        final JsonNode opNode = request.get("op");
        if (opNode == null || !opNode.isTextual()) {
            return error(id, ErrorType.BAD_REQUEST, "'op' must be a string");
        }
        final JsonNode args = request.has("args") && !request.get("args").isNull() ? request.get("args")
            : Codec.object();
        if (!args.isObject()) {
            return error(id, ErrorType.BAD_REQUEST, "'args' must be an object");
        }
        final String op = opNode.asText();
        try {
            if ("hello".equals(op)) {
                return ok(id, hello(args, session));
            }
            if (!session.authenticated) {
                return error(id, ErrorType.AUTH, "say hello first" + (token == null ? "" : " with the token"));
            }
            barrier.accept(arrival);
            return ok(id, dispatch(op, args));
        } catch (RejectedException e) {
            return error(id, ErrorType.REJECTED, message(e));
        } catch (UnsupportedOperationException e) {
            return error(id, ErrorType.UNSUPPORTED, message(e));
        } catch (BadRequest | IllegalArgumentException e) {
            return error(id, ErrorType.BAD_REQUEST, message(e));
        } catch (LimitExceeded e) {
            return error(id, ErrorType.LIMIT, message(e));
        } catch (AuthFailed e) {
            return error(id, ErrorType.AUTH, message(e));
        } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
            return error(id, ErrorType.INTERNAL, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private static String message(final Throwable e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static final class LimitExceeded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LimitExceeded(final String message) {
            super(message);
        }
    }

    private static final class AuthFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        AuthFailed(final String message) {
            super(message);
        }
    }

    private ObjectNode hello(final JsonNode args, final Session session) {
        final JsonNode version = args.get("version");
        if (version != null && (!version.isIntegralNumber() || version.asInt() < 1)) {
            throw new BadRequest("'version' must be a positive integer");
        }
        if (version != null && version.asInt() != VERSION) {
            throw new BadRequest("this agent speaks protocol version " + VERSION + ", not " + version.asInt());
        }
        if (token != null) {
            final JsonNode given = args.get("token");
            final byte[] offered = given != null && given.isTextual() ? given.asText().getBytes(StandardCharsets.UTF_8)
                : new byte[0];
            if (!MessageDigest.isEqual(offered, token)) {
                session.authenticated = false;
                throw new AuthFailed(given == null ? "this agent needs a token" : "wrong token");
            }
        }
        session.authenticated = true;
        final ObjectNode out = Codec.object();
        out.put("version", VERSION);
        final ObjectNode identity = out.putObject("identity");
        identity.put("vendor", info.identity().vendor());
        identity.put("model", info.identity().model());
        identity.put("firmware", info.identity().firmware());
        final ObjectNode endpoints = out.putObject("endpoints");
        endpoints.put("mac", MacAddress.format(info.mac()));
        endpoints.put("ipv4", info.ipv4());
        endpoints.put("ipv6", info.ipv6());
        final ArrayNode capabilities = out.putArray("capabilities");
        for (final Capability capability : Capability.values()) {
            if (info.capabilities().contains(capability)) {
                capabilities.add(capability.label());
            }
        }
        if (timeline != null) {
            capabilities.add(TIMELINE_CAPABILITY);
        }
        final ObjectNode limitsNode = out.putObject("limits");
        limitsNode.put("max_qps", limits.maxQps());
        limitsNode.put("max_mr_bytes", limits.maxMrBytes());
        limitsNode.put("max_io_bytes", limits.maxIoBytes());
        limitsNode.put("max_line_bytes", limits.maxLineBytes());
        return out;
    }

    private JsonNode dispatch(final String op, final JsonNode args) {
        final ObjectNode out = Codec.object();
        synchronized (deviceLock) {
            switch (op) {
                case "allocatePd" -> out.put("pd", device.allocatePd());
                case "createQp" -> {
                    if (liveQps.size() >= limits.maxQps()) {
                        throw new LimitExceeded(limits.maxQps() + " QPs exist already (the agent's limit)");
                    }
                    final int qpn = device.createQp(Codec.attributes(args, "attributes"));
                    liveQps.add(qpn);
                    out.put("qpn", qpn);
                }
                case "modifyQp" -> device.modifyQp(Codec.u32(args, "qpn"), Codec.state(args, "state"),
                    Codec.attributes(args, "attributes"));
                case "queryQp" -> out.put("state", Codec.lower(device.queryQp(Codec.u32(args, "qpn"))));
                case "destroyQp" -> {
                    final int qpn = Codec.u32(args, "qpn");
                    device.destroyQp(qpn);
                    liveQps.remove(qpn);
                }
                case "registerMr" -> {
                    final int pd = Codec.u32(args, "pd");
                    final long length = Codec.count(args, "length", Long.MAX_VALUE);
                    final var access = Codec.access(args, "access");
                    if (length > limits.maxMrBytes() - mrBytes) {
                        throw new LimitExceeded("a region of " + length + " bytes would exceed the agent's limit of "
                            + limits.maxMrBytes() + " registered bytes (" + mrBytes + " registered)");
                    }
                    final MemoryRegion mr = device.registerMr(pd, length, access);
                    liveRegions.put(mr.lkey(), length);
                    mrBytes += length;
                    return Codec.memoryRegion(mr);
                }
                case "invalidateRkey" -> device.invalidateRkey(Codec.u32(args, "rkey"));
                case "deregisterMr" -> {
                    final int lkey = Codec.u32(args, "lkey");
                    device.deregisterMr(lkey);
                    final Long length = liveRegions.remove(lkey);
                    mrBytes -= length == null ? 0 : length;
                }
                case "postReceive" -> device.postReceive(Codec.u32(args, "qpn"), Codec.receiveWqe(args));
                case "postSend" -> device.postSend(Codec.u32(args, "qpn"), Codec.sendWqe(args));
                case "pollCompletions" -> {
                    final List<Completion> completions = device.pollCompletions(Codec.u32(args, "qpn"),
                        (int) Codec.count(args, "max", 4096));
                    final ArrayNode list = out.putArray("completions");
                    completions.forEach(c -> list.add(Codec.completion(c)));
                }
                case "readMemory" -> {
                    final long va = Codec.u64(args, "va");
                    final long length = Codec.count(args, "length", Integer.MAX_VALUE);
                    if (length > limits.maxIoBytes()) {
                        throw new LimitExceeded("a read of " + length + " bytes is more than the agent's limit of "
                            + limits.maxIoBytes() + " bytes per transfer");
                    }
                    out.put("data", Base64.getEncoder().encodeToString(device.readMemory(va, (int) length)));
                }
                case "writeMemory" -> {
                    final long va = Codec.u64(args, "va");
                    final String text = Codec.text(args, "data");
                    if ((long) text.length() * 3 / 4 > limits.maxIoBytes()) {
                        throw new LimitExceeded("a write of about " + (long) text.length() * 3 / 4 + " bytes is more "
                            + "than the agent's limit of " + limits.maxIoBytes() + " bytes per transfer");
                    }
                    final byte[] data;
                    try {
                        data = Base64.getDecoder().decode(text);
                    } catch (IllegalArgumentException e) {
                        throw new BadRequest("argument 'data' is not base64: " + e.getMessage());
                    }
                    device.writeMemory(va, data);
                }
                case "counters" -> out.set("counters", counters(device.counters()));
                case "qpCounters" -> out.set("counters", counters(device.qpCounters(Codec.u32(args, "qpn"))));
                case "reset" -> {
                    device.reset();
                    liveQps.clear();
                    liveRegions.clear();
                    mrBytes = 0;
                }
                case TIMELINE_OPERATION -> {
                    final java.util.function.Supplier<DeviceTimeline> source = timeline;
                    if (source == null) {
                        throw new BadRequest("unknown op '" + op + "' (this agent does not report its device's "
                            + "timeline)");
                    }
                    final DeviceTimeline t = source.get();
                    out.put("worst_late_ns", t.worstLateNanos());
                    out.put("worst", t.worst());
                    out.put("late_events", t.lateEvents());
                    out.put("capture_drops", t.captureDrops());
                }
                default -> throw new BadRequest("unknown op '" + op + "'");
            }
        }
        return out;
    }

    private static ObjectNode counters(final Map<String, Long> counters) {
        final ObjectNode out = Codec.object();
        counters.forEach(out::put);
        return out;
    }

    private static ObjectNode ok(final long id, final JsonNode result) {
        final ObjectNode out = Codec.object();
        out.put("id", id);
        out.put("ok", true);
        out.set("result", result);
        return out;
    }

    static ObjectNode error(final Long id, final ErrorType type, final String message) {
        final ObjectNode out = Codec.object();
        if (id == null) {
            out.putNull("id");
        } else {
            out.put("id", id);
        }
        out.put("ok", false);
        final ObjectNode error = out.putObject("error");
        error.put("type", type.label());
        error.put("message", message);
        return out;
    }

    @Override
    public void close() {
        closed = true;
        try {
            if (server != null) {
                server.close();
            }
        } catch (IOException ignored) {
            // closing anyway
        }
        final List<Socket> open = new ArrayList<>(clients);
        synchronized (greeting) {
            open.addAll(greeting.keySet());
        }
        for (final Socket socket : open) {
            closeQuietly(socket);
        }
        if (acceptor != null) {
            try {
                acceptor.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Reads '\n'-terminated lines of at most {@code max} bytes; a longer one is skipped and reported. */
    static final class LineReader {
        static final byte[] TOO_LONG = new byte[0];
        private final InputStream in;
        private final int max;
        private byte[] buffer = new byte[4096];

        LineReader(final InputStream in, final int max) {
            this.in = in;
            this.max = max;
        }

        /** The next line without its end ('\r' dropped), {@link #TOO_LONG}, or null at the end of the stream. */
        byte[] next() throws IOException {
            int length = 0;
            boolean tooLong = false;
            while (true) {
                final int b = in.read();
                if (b < 0) {
                    return length == 0 && !tooLong ? null : tooLong ? TOO_LONG : copy(length);
                }
                if (b == '\n') {
                    if (tooLong) {
                        return TOO_LONG;
                    }
                    if (length == 0) {
                        continue;
                    }
                    return copy(length);
                }
                if (tooLong) {
                    continue;
                }
                if (length >= max) {
                    tooLong = true;
                    buffer = new byte[4096];
                    continue;
                }
                if (length == buffer.length) {
                    buffer = java.util.Arrays.copyOf(buffer, (int) Math.min((long) buffer.length * 2, max));
                }
                buffer[length++] = (byte) b;
            }
        }

        private byte[] copy(final int length) {
            final int end = length > 0 && buffer[length - 1] == '\r' ? length - 1 : length;
            return java.util.Arrays.copyOf(buffer, end);
        }
    }
}
