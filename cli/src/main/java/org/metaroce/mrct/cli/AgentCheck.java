package org.metaroce.mrct.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.metaroce.mrct.socket.agent.AgentClient;
import org.metaroce.mrct.socket.agent.AgentInfo;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.AdapterException;
import org.metaroce.mrct.spi.Capability;
import org.metaroce.mrct.spi.DeviceTimeline;
import org.metaroce.mrct.spi.Completion;
import org.metaroce.mrct.spi.CompletionStatus;
import org.metaroce.mrct.spi.MemoryRegion;
import org.metaroce.mrct.spi.QpAttribute;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.spi.ReceiveWqe;
import org.metaroce.mrct.spi.RejectedException;
import org.metaroce.mrct.spi.SendWqe;
import org.metaroce.mrct.spi.WorkOpcode;

/**
 * Exercises every operation of the control-agent protocol against one agent, without frames: what the agent claims
 * ({@code hello}) and what each operation does. An operation is <em>claimed</em> when every agent must have it (QPs,
 * regions, receives, reset) or when a capability the agent declares needs it; the agent passes when every claimed
 * operation works. The QP it creates never leaves RTS for a peer: it is moved to ERROR before anything is sent.
 */
final class AgentCheck {
    /** What one operation did. */
    enum Outcome {
        OK("ok"), UNSUPPORTED("unsupported"), REJECTED("rejected"), ERROR("error"), WRONG("wrong answer"),
        SKIPPED("not tried");

        final String text;

        Outcome(final String text) {
            this.text = text;
        }
    }

    /** One operation's row: whether the agent claims it, what it did, and why. */
    record Row(String op, boolean claimed, Outcome outcome, String detail) {
        boolean fails() {
            return claimed && outcome != Outcome.OK;
        }
    }

    /** The check's result: the hello and the rows, in order. */
    record Report(AgentInfo info, List<Row> rows) {
        boolean passed() {
            return info != null && rows.stream().noneMatch(Row::fails);
        }
    }

    /** Where the QP the check creates points (never used for traffic: the QP sends nothing). */
    record Peer(String ipv4, long mac, int qpn) {
    }

    /** Signals a wrong answer found while checking one operation. */
    private static final class Wrong extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Wrong(final String message) {
            super(message);
        }
    }

    private static final List<String> ALWAYS = List.of("hello", "reset", "allocatePd", "registerMr", "createQp",
        "modifyQp", "queryQp", "postReceive", "destroyQp", "deregisterMr", "protocol");

    private final AgentClient client;
    private final InetSocketAddress address;
    private final String token;
    private final Peer peer;
    private final Map<String, Row> rows = new LinkedHashMap<>();
    private Set<Capability> claims = EnumSet.noneOf(Capability.class);

    private AgentCheck(final AgentClient client, final InetSocketAddress address, final String token,
                       final Peer peer) {
        this.client = client;
        this.address = address;
        this.token = token;
        this.peer = peer;
    }

    /** Runs the check; the client is the harness's own, so the agent is judged by what the harness would see. */
    static Report run(final AgentClient client, final InetSocketAddress address, final String token,
                      final Peer peer) {
        return new AgentCheck(client, address, token, peer).run();
    }

    private boolean claimed(final String op) {
        if (ALWAYS.contains(op)) {
            return true;
        }
        return switch (op) {
            case "readMemory" -> claims.contains(Capability.MEMORY_READBACK);
            case "writeMemory" -> claims.contains(Capability.MEMORY_WRITE);
            case "counters" -> claims.contains(Capability.COUNTERS);
            case "pollCompletions" -> claims.contains(Capability.COMPLETIONS);
            case "postSend" -> claims.contains(Capability.REQUESTER_CONTROL);
            case "deviceTimeline" -> client.offersDeviceTimeline();
            default -> false; // invalidateRkey, qpCounters: a device may lack them whatever it claims
        };
    }

    /** Runs one operation: its first non-OK outcome sticks, so a row says the worst that happened to it. */
    private <T> T attempt(final String op, final String detail, final Supplier<T> call) {
        try {
            final T value = call.get();
            record(op, Outcome.OK, detail);
            return value;
        } catch (Wrong e) {
            record(op, Outcome.WRONG, e.getMessage());
        } catch (UnsupportedOperationException e) {
            record(op, Outcome.UNSUPPORTED, e.getMessage());
        } catch (RejectedException e) {
            record(op, Outcome.REJECTED, e.getMessage());
        } catch (AdapterException e) {
            record(op, Outcome.ERROR, e.getMessage());
        }
        return null;
    }

    private void attemptRun(final String op, final String detail, final Runnable call) {
        attempt(op, detail, () -> {
            call.run();
            return Boolean.TRUE;
        });
    }

    /** A call that must be refused ({@code rejected}): anything else is a wrong answer. */
    private void expectRejected(final String op, final String what, final Runnable call) {
        try {
            call.run();
            record(op, Outcome.WRONG, what + " was accepted; it must be rejected");
        } catch (RejectedException e) {
            record(op, Outcome.OK, null);
        } catch (UnsupportedOperationException e) {
            record(op, Outcome.UNSUPPORTED, e.getMessage());
        } catch (AdapterException e) {
            record(op, Outcome.WRONG, what + ": answered with an error instead of rejected: " + e.getMessage());
        }
    }

    private void record(final String op, final Outcome outcome, final String detail) {
        final Row old = rows.get(op);
        if (old != null && old.outcome() != Outcome.OK && old.outcome() != Outcome.SKIPPED) {
            return;
        }
        final String text = outcome == Outcome.OK && old != null && old.detail() != null
            ? old.detail() + (detail == null ? "" : "; " + detail) : detail;
        rows.put(op, new Row(op, claimed(op), outcome, text));
    }

    private void skip(final String op, final String why) {
        rows.putIfAbsent(op, new Row(op, claimed(op), Outcome.SKIPPED, why));
    }

    private Report run() {
        final AgentInfo info;
        try {
            info = client.hello();
        } catch (AdapterException e) {
            rows.put("hello", new Row("hello", true, Outcome.ERROR, e.getMessage()));
            return new Report(null, List.copyOf(rows.values()));
        }
        claims = info.capabilities().isEmpty() ? EnumSet.noneOf(Capability.class) : EnumSet.copyOf(info.capabilities());
        rows.put("hello", new Row("hello", true, Outcome.OK, "protocol version " + info.version()));
        protocolErrors();
        attemptRun("reset", null, client::reset);
        final Integer pd = attempt("allocatePd", null, client::allocatePd);
        if (pd == null) {
            return finish(info, "needs a PD");
        }
        final Set<Access> rights = EnumSet.allOf(Access.class);
        final MemoryRegion mr = attempt("registerMr", null, () -> {
            final MemoryRegion r = client.registerMr(pd, 8192, rights);
            if (r.length() != 8192 || r.pd() != pd) {
                throw new Wrong("asked for 8192 bytes in PD " + pd + ", got " + r.length() + " bytes in PD " + r.pd());
            }
            return r;
        });
        if (mr == null) {
            return finish(info, "needs a region");
        }
        memory(mr);
        final Integer qpn = createQp(pd);
        if (qpn != null) {
            qpLife(qpn, mr);
        } else {
            for (final String op : List.of("modifyQp", "queryQp", "postReceive", "pollCompletions", "postSend",
                "qpCounters", "destroyQp")) {
                skip(op, "needs a QP");
            }
        }
        attempt("invalidateRkey", null, () -> {
            client.invalidateRkey(mr.rkey());
            return Boolean.TRUE;
        });
        final boolean counting = claims.contains(Capability.COUNTERS);
        final Map<String, Long> counters = attempt("counters", counting ? null
            : "answered although the agent does not claim counters", () -> {
                final Map<String, Long> values = client.counters();
                if (values.values().stream().anyMatch(v -> v < 0)) {
                    throw new Wrong("a counter is negative: " + values);
                }
                return values;
            });
        if (counters != null && counting) {
            rows.put("counters", new Row("counters", true, Outcome.OK, counters.isEmpty() ? "no counter kept"
                : counters.size() + " kept: " + String.join(", ", counters.keySet())));
        }
        if (client.offersDeviceTimeline()) {
            attempt("deviceTimeline", null, () -> {
                final DeviceTimeline timeline = client.deviceTimeline();
                rows.put("deviceTimeline", new Row("deviceTimeline", true, Outcome.OK, "worst lateness since the "
                    + "reset " + timeline.worstLateNanos() + " ns, " + timeline.captureDrops() + " frame(s) dropped"));
                return timeline;
            });
        } else {
            skip("deviceTimeline", "not offered (a software device's report of its own lateness; hardware has none)");
        }
        attemptRun("deregisterMr", null, () -> client.deregisterMr(mr.lkey()));
        if (claims.contains(Capability.MEMORY_READBACK) && rows.get("deregisterMr").outcome() == Outcome.OK) {
            expectRejected("readMemory", "reading a deregistered region", () -> client.readMemory(mr.va(), 8));
        }
        attemptRun("reset", null, client::reset);
        return finish(info, null);
    }

    private void memory(final MemoryRegion mr) {
        final boolean read = claims.contains(Capability.MEMORY_READBACK);
        final boolean write = claims.contains(Capability.MEMORY_WRITE);
        if (read) {
            attempt("readMemory", "new memory reads as zeros", () -> {
                if (!Arrays.equals(client.readMemory(mr.va(), 64), new byte[64])) {
                    throw new Wrong("a new region does not read as zeros");
                }
                return Boolean.TRUE;
            });
            expectRejected("readMemory", "reading past the region's end",
                () -> client.readMemory(mr.va() + mr.length(), 8));
        } else {
            skip("readMemory", "not claimed");
        }
        if (write) {
            final byte[] pattern = new byte[32];
            for (int i = 0; i < pattern.length; i++) {
                pattern[i] = (byte) (0xA0 + i);
            }
            attempt("writeMemory", read ? "read back equal" : null, () -> {
                client.writeMemory(mr.va() + 100, pattern);
                if (read && !Arrays.equals(client.readMemory(mr.va() + 100, pattern.length), pattern)) {
                    throw new Wrong("32 bytes written do not read back equal");
                }
                return Boolean.TRUE;
            });
        } else {
            skip("writeMemory", "not claimed");
        }
    }

    /** Creates the QP: tver 1 (MetaRoCE) first, tver 0 when the device cannot run tver 1 (a RoCEv2 device). */
    private Integer createQp(final int pd) {
        final QpAttributes base = QpAttributes.empty().with(QpAttribute.PD, pd).with(QpAttribute.DEST_QPN, peer.qpn())
            .with(QpAttribute.SQ_PSN, 100).with(QpAttribute.RQ_PSN, 200).with(QpAttribute.DEST_IP, peer.ipv4())
            .with(QpAttribute.DEST_MAC, peer.mac()).with(QpAttribute.PKEY, 0xFFFF).with(QpAttribute.PMTU, 1024)
            .with(QpAttribute.ACCESS, Set.of(Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC));
        try {
            final int qpn = client.createQp(base.with(QpAttribute.TVER, 1));
            record("createQp", Outcome.OK, "QPN 0x" + Integer.toHexString(qpn) + ", tver 1");
            return qpn;
        } catch (UnsupportedOperationException e) {
            final String why = e.getMessage();
            return attempt("createQp", null, () -> {
                final int qpn = client.createQp(base.with(QpAttribute.TVER, 0));
                rows.remove("createQp");
                record("createQp", Outcome.OK, "QPN 0x" + Integer.toHexString(qpn) + ", tver 0 (tver 1 unsupported: "
                    + why + ")");
                return qpn;
            });
        } catch (RejectedException e) {
            record("createQp", Outcome.REJECTED, e.getMessage());
        } catch (AdapterException e) {
            record("createQp", Outcome.ERROR, e.getMessage());
        }
        return null;
    }

    private void expectState(final int qpn, final QpState state) {
        attempt("queryQp", null, () -> {
            final QpState actual = client.queryQp(qpn);
            if (actual != state) {
                throw new Wrong("the QP is " + actual + ", expected " + state);
            }
            return actual;
        });
    }

    private void qpLife(final int qpn, final MemoryRegion mr) {
        expectState(qpn, QpState.RESET);
        for (final QpState state : List.of(QpState.INIT, QpState.RTR, QpState.RTS)) {
            attemptRun("modifyQp", null, () -> client.modifyQp(qpn, state, QpAttributes.empty()));
            expectState(qpn, state);
        }
        final Row moved = rows.get("modifyQp");
        if (moved != null && moved.outcome() == Outcome.OK) {
            rows.put("modifyQp", new Row("modifyQp", true, Outcome.OK, "RESET, INIT, RTR, RTS"));
            expectRejected("modifyQp", "RTS -> RTR (Table 3-2 has no such transition)",
                () -> client.modifyQp(qpn, QpState.RTR, QpAttributes.empty()));
        }
        attemptRun("postReceive", null, () -> client.postReceive(qpn, new ReceiveWqe(0x11, mr.va() + 4096, 1024,
            mr.lkey())));
        final boolean completions = claims.contains(Capability.COMPLETIONS);
        if (completions) {
            attempt("pollCompletions", "none before anything happened", () -> {
                final List<Completion> none = client.pollCompletions(qpn, 16);
                if (!none.isEmpty()) {
                    throw new Wrong("completions before any traffic: " + none);
                }
                return none;
            });
        }
        // ERROR before any send: the QP flushes what it holds and never puts a frame on the wire
        attemptRun("modifyQp", null, () -> client.modifyQp(qpn, QpState.ERROR, QpAttributes.empty()));
        expectState(qpn, QpState.ERROR);
        if (claims.contains(Capability.REQUESTER_CONTROL)) {
            attemptRun("postSend", "on a QP in ERROR: flushed", () -> client.postSend(qpn, new SendWqe(0x22,
                WorkOpcode.RDMA_WRITE, mr.va(), 64, mr.lkey(), mr.va(), mr.rkey(), 0, 0, 0, true)));
        } else {
            skip("postSend", "not claimed");
        }
        if (completions) {
            attempt("pollCompletions", "the receive flushed by ERROR", () -> {
                final List<Completion> flushed = new ArrayList<>(client.pollCompletions(qpn, 16));
                if (flushed.stream().noneMatch(c -> c.wrId() == 0x11 && c.status() == CompletionStatus.FLUSHED)) {
                    throw new Wrong("moving to ERROR did not flush the posted receive (wr_id 0x11): " + flushed);
                }
                return flushed;
            });
        } else {
            skip("pollCompletions", "not claimed");
        }
        attempt("qpCounters", null, () -> client.qpCounters(qpn));
        attemptRun("destroyQp", null, () -> client.destroyQp(qpn));
        expectRejected("queryQp", "querying a destroyed QP", () -> client.queryQp(qpn));
    }

    /** Requests that break the protocol get the errors PROTOCOL.md names, on a connection of their own. */
    private void protocolErrors() {
        try (Socket socket = new Socket()) {
            socket.connect(address, 5000);
            socket.setSoTimeout(10_000);
            final OutputStream out = socket.getOutputStream();
            final BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                StandardCharsets.UTF_8));
            final String early = exchange(out, in, "{\"id\":1,\"op\":\"counters\",\"args\":{}}");
            final String tokenJson = token == null ? "" : ",\"token\":\"" + token.replace("\\", "\\\\")
                .replace("\"", "\\\"") + "\"";
            exchange(out, in, "{\"id\":2,\"op\":\"hello\",\"args\":{\"version\":1" + tokenJson + "}}");
            final String unknown = exchange(out, in, "{\"id\":3,\"op\":\"noSuchOperation\",\"args\":{}}");
            final String garbage = exchange(out, in, "this is not json");
            final List<String> wrong = new ArrayList<>();
            if (!early.contains("\"auth\"")) {
                wrong.add("a request before hello got " + early + ", not an auth error");
            }
            if (!unknown.contains("\"bad-request\"") || !unknown.contains("\"id\":3")) {
                wrong.add("an unknown op got " + unknown + ", not bad-request with id 3");
            }
            if (!garbage.contains("\"bad-request\"") || !garbage.contains("\"id\":null")) {
                wrong.add("a line that is not JSON got " + garbage + ", not bad-request with id null");
            }
            record("protocol", wrong.isEmpty() ? Outcome.OK : Outcome.WRONG, wrong.isEmpty()
                ? "auth before hello, bad-request for an unknown op and for a line that is not JSON"
                : String.join("; ", wrong));
        } catch (IOException e) {
            record("protocol", Outcome.ERROR, "a second connection failed: " + e.getMessage());
        }
    }

    private static String exchange(final OutputStream out, final BufferedReader in, final String line)
        throws IOException {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        final String answer = in.readLine();
        if (answer == null) {
            throw new IOException("the agent closed the connection after " + line);
        }
        return answer.replace(" ", "");
    }

    private Report finish(final AgentInfo info, final String stopped) {
        if (stopped != null) {
            for (final String op : List.of("registerMr", "readMemory", "writeMemory", "createQp", "modifyQp",
                "queryQp", "postReceive", "pollCompletions", "postSend", "invalidateRkey", "counters", "qpCounters",
                "deviceTimeline", "destroyQp", "deregisterMr")) {
                skip(op, stopped);
            }
        }
        final List<Row> ordered = new ArrayList<>();
        for (final String op : List.of("hello", "protocol", "reset", "allocatePd", "registerMr", "readMemory",
            "writeMemory", "createQp", "queryQp", "modifyQp", "postReceive", "pollCompletions", "postSend",
            "invalidateRkey", "counters", "qpCounters", "deviceTimeline", "destroyQp", "deregisterMr")) {
            final Row row = rows.get(op);
            ordered.add(row != null ? row : new Row(op, claimed(op), Outcome.SKIPPED, "not reached"));
        }
        return new Report(info, ordered);
    }
}
