package org.metaroce.mrct.analyzer.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.metaroce.mrct.harness.result.EvidenceComment;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.oracle.FrameOracle;
import org.metaroce.mrct.oracle.Scope;
import org.metaroce.mrct.wire.AethSyndrome;
import org.metaroce.mrct.wire.BigEndian;
import org.metaroce.mrct.wire.DecodeError;
import org.metaroce.mrct.wire.DecodeStatus;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.HeaderLayout;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Position;
import org.metaroce.mrct.wire.Psn;
import org.metaroce.mrct.wire.RoceVersion;
import org.metaroce.mrct.wire.capture.CaptureReader;
import org.metaroce.mrct.wire.header.Ipv4Flyweight;

/**
 * The analysis of one capture file, streamed: one {@link CaptureReader}, one {@link FrameDecoder}, one reused
 * {@link Frame}, and per flow a bounded state, so that memory stays flat however large the file. Each frame is decoded,
 * checked on its own by the oracle ({@link OracleChecks}), given to its flow, and, for requests and answers, to the requester stream
 * it belongs to; answers pair the two directions of a connection ({@link HostPair}).
 *
 * <p>An mrct evidence file (pcapng whose packet comments start with {@code mrct case=}) is analysed case by case: the
 * state is reset when the case changes, since every case sets up its own QPs, and only the frames the device sent
 * ({@code dir=from-dut}) are judged; the harness's frames, malformed on purpose in many cases, are context only.
 */
final class Session {
    /** The transport version the checks assume. */
    enum Mode {
        /** From each connection's frames (bth.tver). */
        AUTO,
        /** Every connection is a TVer 0 (plain RoCEv2) one, judged by the legacy rules. */
        LEGACY,
        /** Every connection is a TVer 1 (MetaRoCE v1) one. */
        METAROCE
    }

    private final Path path;
    private final String name;
    private final Context cx;
    private final Mode mode;
    private final FrameDecoder decoder = new FrameDecoder();
    private final Frame frame = new Frame();
    private final FlowTable flows = new FlowTable();
    private final Cnps cnps;
    private final FlowTable.Factory factory = this::newFlow;
    /** {@link #scratch(int)} as a function, made once (a method reference in the per-frame path allocates). */
    private final java.util.function.IntFunction<ByteBuffer> scratches = this::scratch;
    private final List<Connection> finished = new ArrayList<>();
    /** The frames outside MetaRoCE's scope (Appendix F.1), reported as not applicable. */
    final OutOfScope outOfScope = new OutOfScope();
    private ByteBuffer scratch = ByteBuffer.allocate(1 << 16);

    private long origin = Long.MIN_VALUE;
    private long lastNs;
    private boolean evidence;
    private boolean evidenceDecided;
    private String evidenceCase;
    /** Whether the run recorded the current evidence case INCONCLUSIVE (its {@code verdict=} field). */
    private boolean evidenceInconclusive;
    private boolean fromDut = true;
    private boolean undelivered;
    private long caseLastNs = Long.MIN_VALUE;

    /** Records read. */
    long frames;
    /** RoCE frames (well formed or not) within MetaRoCE's scope. */
    long roceFrames;
    /** Frames of a link type that is neither Ethernet nor Linux cooked: not analysed. */
    long otherLinkFrames;
    /** RoCE frames the decoder could not lay out. */
    long malformedFrames;
    /** Frames cut short by the capture's snap length (headers judged, payload and ICRC not). */
    long cutFrames;
    /** Records larger than any frame ({@link PrefetchReader#MAX_FRAME}): not analysed. */
    long oversizedFrames;
    /** The first of them: {@code record R at byte B: ...}, or null. */
    String oversized;
    /** Nanoseconds spent reading and analysing. */
    long elapsedNs;
    /** Told how far the reading got, or null. */
    Analysis.Progress progress;
    /** The shard of the capture this analysis judges (or the pass that finds the shards), or null for all of it. */
    Partition partition;
    /** What releases connections before the capture's end ({@link #releasing}), or null: held to the end. */
    Releases releases;

    /**
     * @param path the capture
     * @param name the capture as named in reports (the path as given)
     * @param judge what proves a violation
     * @param parameters the parameters of the analysis
     * @param mode the transport version the checks assume
     */
    Session(final Path path, final String name, final Judge judge, final Parameters parameters,
                   final Mode mode) {
        this.path = path;
        this.name = name;
        this.cx = new Context(judge, parameters);
        this.mode = mode;
        this.cnps = new Cnps(cx);
    }

    /** The judge of an analysis: evidence files are judged as complete captures taken at the device. */
    static Judge judge(final boolean complete, final boolean evidence, final Parameters parameters) {
        return new Judge(complete || evidence, evidence, parameters.declared());
    }

    /**
     * Makes this session one shard of a capture analysed on several threads ({@link Shards}): the capture's first
     * timestamp is what {@code captureOrigin} says when this shard sees its first frame (the capture's first frame
     * that is not oversized was handed out before, to this shard or another), and the capture is not mrct evidence
     * (its first record said so) whatever comment this shard's first record carries.
     */
    void shardOf(final java.util.function.LongSupplier captureOrigin) {
        shardOrigin = captureOrigin;
        evidenceDecided = true;
    }

    /** The capture's first timestamp when this session is a shard of it, asked at this shard's first frame. */
    private java.util.function.LongSupplier shardOrigin;

    /** The capture's last timestamp as the other shards saw it, for the deadlines judged at the end. */
    void captureEnd(final long lastTimestamp) {
        lastNs = Math.max(lastNs, lastTimestamp);
    }

    /**
     * Releases this session's connections before the capture's end by {@code policy} into {@code sink} (not in an mrct
     * evidence file, judged case by case).
     */
    void releasing(final Releases.Policy policy, final Releases.Sink sink) {
        releases = policy.releases() ? new Releases(policy, flows, cnps, cx, sink) : null;
    }

    /** True when the file turned out to be mrct evidence. */
    boolean evidence() {
        return evidence;
    }

    /**
     * Reads the whole file. On a damaged file it throws after analysing every frame before the damage; call
     * {@link #finish()} either way.
     */
    void run(final CaptureReader reader) throws IOException {
        final long start = System.nanoTime();
        long size = 0;
        if (progress != null) {
            try {
                size = java.nio.file.Files.size(path);
            } catch (IOException e) {
                size = 0;
            }
        }
        CaptureReader in = reader;
        try {
            while (in.next()) {
                if ((++frames & 0xFFFF) == 0 && progress != null) {
                    progress.update(in.byteOffset(), size, frames);
                }
                if (!evidenceDecided) {
                    decideEvidence(in);
                    if (evidence) {
                        // each case's frames in the order, and at the stamps, the live engine judged them by
                        in = new EvidenceOrder(reader, true);
                        in.next();
                    }
                }
                if (evidence) {
                    evidenceFrame(in);
                    if (undelivered) {
                        continue;
                    }
                }
                analyse(in);
            }
            if (progress != null) {
                progress.update(size, size, frames);
            }
        } finally {
            elapsedNs += System.nanoTime() - start;
        }
    }

    private void decideEvidence(final CaptureReader reader) throws EvidenceHeader.BadFieldException {
        evidenceDecided = true;
        final String comment = reader.comment();
        evidence = comment != null && comment.startsWith("mrct ") && comment.contains(" case=");
        if (evidence) {
            releases = null;
            // evidence files are complete captures taken at the device: rebuild the context accordingly, with the
            // timing tolerance the run judged the device with (before any frame is judged)
            cx.tolerance = EvidenceHeader.tolerance(path, reader.sectionComment());
            final Judge judge = judge(true, true, cx.parameters);
            cx.replaceJudge(judge);
            try {
                cx.control = new EvidenceControl(CaptureReader.open(path));
            } catch (IOException e) {
                cx.control = null;
            }
        }
    }

    private void evidenceFrame(final CaptureReader reader) {
        final String comment = reader.comment();
        String kase = null;
        String dir = null;
        String note = "";
        String verdict = "";
        if (comment != null && comment.startsWith("mrct ")) {
            for (final String word : comment.split(" ")) {
                if (word.startsWith("case=")) {
                    kase = EvidenceComment.decode(word.substring(5));
                } else if (word.startsWith("dir=")) {
                    dir = word.substring(4);
                } else if (word.startsWith("note=")) {
                    note = EvidenceComment.decode(word.substring(5));
                } else if (word.startsWith("verdict=")) {
                    verdict = word.substring(8);
                }
            }
        }
        fromDut = "from-dut".equals(dir);
        // a frame the harness recorded but did not deliver (simulated loss) never reached the device
        undelivered = "to-dut".equals(dir) && note.startsWith("dropped");
        if (kase != null && !kase.equals(evidenceCase)) {
            if (evidenceCase != null) {
                finishCase();
                cnps.rtsLowerBound = caseLastNs == Long.MIN_VALUE ? Long.MIN_VALUE : caseLastNs + 1_000;
            }
            evidenceCase = kase;
            evidenceInconclusive = "INCONCLUSIVE".equals(verdict);
            if (cx.control != null) {
                cx.control.load(kase);
            }
        }
    }

    private void analyse(final CaptureReader reader) {
        if (reader.capturedLength() > PrefetchReader.MAX_FRAME) {
            if (oversizedFrames++ == 0) {
                oversized = "record " + reader.recordNumber() + " at byte " + reader.byteOffset() + ": "
                    + reader.capturedLength() + " bytes captured, more than the " + PrefetchReader.MAX_FRAME
                    + " an Ethernet frame can have (not analysed)";
            }
            return;
        }
        final long ts = reader.timestampNanos();
        if (origin == Long.MIN_VALUE) {
            origin = shardOrigin != null ? shardOrigin.getAsLong() : ts;
        }
        lastNs = Math.max(lastNs, ts);
        caseLastNs = ts;
        ByteBuffer buffer = reader.buffer();
        int offset = reader.offset();
        int length = reader.capturedLength();
        final int linkType = reader.linkType();
        if (linkType != CaptureReader.LINKTYPE_ETHERNET) {
            if (!LinkLayer.supported(linkType)) {
                if (partition == null || partition.ownsUnaddressed()) {
                    otherLinkFrames++;
                }
                return;
            }
            length = LinkLayer.toEthernet(linkType, buffer, offset, length, scratch(length + 16));
            if (length < 0) {
                if (partition == null || partition.ownsUnaddressed()) {
                    otherLinkFrames++;
                }
                return;
            }
            buffer = scratch;
            offset = 0;
        }
        boolean cut = false;
        final long original = reader.originalLength() - (reader.capturedLength() - length);
        final ByteBuffer padded = zeroPadded(buffer, offset, length, original, scratches);
        if (padded != null) {
            buffer = padded;
            offset = 0;
            length = (int) original;
            cut = true;
        }
        // the ICRCs computed and read ahead, on other threads ({@link PrefetchReader}), or null
        final PrefetchReader ahead = buffer == reader.buffer() && reader instanceof PrefetchReader prefetch
            && prefetch.icrcKnown() ? prefetch : null;
        final DecodedFrame decoded = ahead != null
            ? decoder.decode(buffer, offset, length, ahead.computedIcrc(), ahead.icrcOnWire(),
                ahead.ipChecksumRight())
            : decoder.decode(buffer, offset, length);
        if (decoded.status() == DecodeStatus.NOT_ROCE) {
            return;
        }
        if (partition != null && !owned(decoded, buffer, offset + length, ts, cut, reader, length)) {
            return;
        }
        if (fromDut && decoded.version() == RoceVersion.V2) {
            final Scope scope = scope(decoded, buffer, reader.fcsLength());
            if (!scope.judged()) {
                // UC, UD, MADs, other services, look-alikes: counted and reported as not applicable, never judged
                if (partition == null || partition.ownsUnaddressed()) {
                    outOfScope.add(scope, decoded, reader.recordNumber(), length);
                }
                return;
            }
        }
        roceFrames++;
        if (cut) {
            cutFrames++;
        }
        final Frame fr = frame;
        fr.decoded = decoded;
        fr.buffer = buffer;
        fr.number = reader.recordNumber();
        fr.tsNs = ts;
        fr.wireLength = length;
        fr.captured = reader.capturedLength();
        fr.cut = cut;
        fr.judged = fromDut;
        if (decoded.status() == DecodeStatus.MALFORMED) {
            malformedFrames++;
            malformed(fr);
            return;
        }
        if (decoded.version() != RoceVersion.V2) {
            otherLinkFrames++;
            return;
        }
        fill(fr);
        cnps.advance(ts);
        if (releases != null) {
            releases.beforeFrame(ts, reader instanceof PrefetchReader shard ? shard.partOf(releases.maxFlows())
                : releases.maxFlows());
        }
        final Flow flow = flowOf(fr, decoded.ipVersion(), fr.dqpn);
        fr.flow = flow;
        flow.frames++;
        flow.bytes += fr.wireLength;
        flow.lastNs = ts;
        flow.lastFrame = fr.number;
        final Connection c = flow.connection;
        c.lastNs = ts;
        if (c.tver < 0 && !fr.isCnp() && (fr.tver == 0 || fr.tver == 1)) {
            c.tver = mode == Mode.LEGACY ? 0 : mode == Mode.METAROCE ? 1 : fr.tver;
        }
        if (!fr.cut && !fr.icrcOk) {
            flow.badIcrc++;
        }
        if (fr.ecn == 3) {
            flow.ceMarked++;
        }
        OracleChecks.check(fr, cx, reader.fcsLength());
        dispatch(fr);
    }

    /** The frame's scope: the oracle's, except that a frame of a flow already seen is judged with it. */
    private Scope scope(final DecodedFrame decoded, final ByteBuffer buffer, final int fcsLength) {
        final Scope scope = FrameOracle.scope(decoded, cx.vantage(fcsLength));
        // a frame of a flow already seen is a damaged frame of it, not another protocol's datagram
        if (scope.kind() == Scope.Kind.NOT_BTH && decoded.has(HeaderKind.BTH)) {
            final int ip = decoded.offset(decoded.ipVersion() == 4 ? HeaderKind.IPV4 : HeaderKind.IPV6);
            final int dqpn = decoded.bth().destQp();
            if (flows.contains(buffer, ip, decoded.ipVersion(), dqpn, eth(decoded))
                || partition != null && partition.seen(buffer, ip, decoded.ipVersion(), dqpn)) {
                return Scope.METAROCE;
            }
        }
        return scope;
    }

    /**
     * With a {@link Partition}: true when this analysis judges the frame (its hosts' unit is this shard's; frames
     * without addresses, and every frame of an mrct evidence file, belong to shard 0). A frame of another shard only
     * moves the CNP deadlines' clock on and, in shard 0, is counted when outside MetaRoCE's scope (shard 0 reports
     * every such frame of the capture) or remembered as a flow seen (for the scope of later look-alike frames).
     */
    private boolean owned(final DecodedFrame decoded, final ByteBuffer buffer, final int end, final long ts,
                          final boolean cut, final CaptureReader reader, final int length) {
        final int version = decoded.has(HeaderKind.IPV4) ? 4 : decoded.has(HeaderKind.IPV6) ? 6 : 0;
        final int ip = version == 4 ? decoded.offset(HeaderKind.IPV4)
            : version == 6 ? decoded.offset(HeaderKind.IPV6) : -1;
        if (evidence || decoded.version() != RoceVersion.V2 || version == 0 || ip < 0
            || ip + (version == 4 ? 20 : 40) > end) {
            return partition.ownsUnaddressed();
        }
        if (partition.owns(buffer, ip, version)) {
            return true;
        }
        if (partition.ownsUnaddressed()) {
            final Scope scope = scope(decoded, buffer, reader.fcsLength());
            if (!scope.judged()) {
                outOfScope.add(scope, decoded, reader.recordNumber(), length);
                return false;
            }
            if (decoded.has(HeaderKind.BTH) && !(decoded.status() == DecodeStatus.MALFORMED && cut
                && decoded.error() == DecodeError.TRUNCATED)) {
                partition.see(buffer, ip, version, BigEndian.u24(buffer, decoded.offset(HeaderKind.BTH) + 5));
            }
        }
        if (decoded.status() != DecodeStatus.MALFORMED) {
            cnps.advance(ts);
        }
        return false;
    }

    /**
     * A frame the capture cut short of its {@code original} length (64 KiB at most) copied to the start of a
     * {@code scratch} buffer and padded with zeros to that length, so that its headers decode and its lengths check as
     * sent; null when it was not cut (or is too long to pad).
     */
    static ByteBuffer zeroPadded(final ByteBuffer buffer, final int offset, final int length, final long original,
                                 final java.util.function.IntFunction<ByteBuffer> scratch) {
        if (original <= length || original > (1 << 16)) {
            return null;
        }
        final ByteBuffer patched = scratch.apply((int) original);
        if (patched != buffer) {
            patched.put(0, buffer, offset, length);
        }
        for (int i = length; i < original; i++) {
            patched.put(i, (byte) 0);
        }
        return patched;
    }

    private ByteBuffer scratch(final int size) {
        if (scratch.capacity() < size) {
            scratch = ByteBuffer.allocate(Integer.highestOneBit(size) << 1);
        }
        return scratch;
    }

    private void fill(final Frame fr) {
        final DecodedFrame d = fr.decoded;
        final ByteBuffer b = fr.buffer;
        final int bth = d.offset(HeaderKind.BTH);
        fr.opcode = d.opcode();
        fr.kind = fr.opcode.kind();
        fr.memoryPlacement = d.tver() == 0 && fr.opcode.isMemoryPlacement() && !cx.metaroceSenders();
        if (fr.memoryPlacement) {
            fr.kind = OpKind.RDMA_READ_REQUEST;
        }
        fr.position = fr.opcode.position();
        fr.tver = d.tver();
        fr.pkey = BigEndian.u16(b, bth + 2);
        fr.dqpn = BigEndian.u24(b, bth + 5);
        fr.ackReq = (BigEndian.u8(b, bth + 8) & 0x80) != 0;
        fr.psn = BigEndian.u24(b, bth + 9);
        fr.sourcePort = BigEndian.u16(b, d.offset(HeaderKind.UDP));
        fr.ecn = d.ecn();
        fr.payloadLength = d.payloadLength();
        fr.readPleth();
        fr.readAeth();
        // the ICRC carried, read once (DecodedFrame.icrcValid would read it again)
        fr.icrcOnWire = fr.cut ? 0 : d.icrcOnWire();
        fr.icrcOk = fr.cut || fr.icrcOnWire == d.computeIcrc();
        fr.ipChecksumOk = d.ipChecksumValid();
        boolean receivable = fr.icrcOk && fr.ipChecksumOk && d.udpChecksumValid() && d.layoutKnown()
            && (fr.tver == 0 || fr.tver == 1);
        if (receivable && !HeaderLayout.carriesPayload(fr.opcode) && !fr.cut && d.dataRegionLength() != 0) {
            receivable = false;
        }
        if (receivable && !fr.cut && d.dataRegionLength() % 4 != 0) {
            receivable = false;
        }
        if (receivable && fr.hasPleth()) {
            final boolean first = fr.position.isFirst() || fr.position == Position.NONE;
            final boolean last = fr.position.isLast() || fr.position == Position.NONE;
            receivable = fr.plethFirst() == first && fr.plethLast() == last;
        }
        fr.receivable = receivable;
        final long icrc = fr.icrcOnWire & 0xFFFF_FFFFL;
        fr.ipv4Id = d.has(HeaderKind.IPV4)
            ? BigEndian.u16(b, d.offset(HeaderKind.IPV4) + Ipv4Flyweight.IDENTIFICATION_OFFSET) : 0;
        final int id = d.has(HeaderKind.IPV4) ? fr.ipv4Id : d.ipv6().flowLabel();
        fr.signature = icrc << 32 ^ (long) id << 16 ^ fr.sourcePort ^ (long) fr.wireLength << 48
            ^ (long) fr.psn * 0x9E3779B1L ^ (long) fr.opcode.code() << 40 ^ (fr.ackReq ? 1L << 62 : 0);
    }

    private Flow flowOf(final Frame fr, final int ipVersion, final int dqpn) {
        final DecodedFrame d = fr.decoded;
        final int ip = d.offset(ipVersion == 4 ? HeaderKind.IPV4 : HeaderKind.IPV6);
        final Flow flow = flows.lookup(fr.buffer, ip, ipVersion, dqpn, eth(d), factory);
        if (releases == null || !releases.stale(flow, fr.tsNs)) {
            return flow;
        }
        // idle longer than the window: released now, as a sweep would have; the frame starts a new segment
        releases.releaseStale(flow);
        return flows.lookup(fr.buffer, ip, ipVersion, dqpn, eth(d), factory);
    }

    /** Where the frame's Ethernet header is, or -1. */
    private static int eth(final DecodedFrame d) {
        return d.has(HeaderKind.ETH) ? d.offset(HeaderKind.ETH) : -1;
    }

    /** Creates the flow of the current frame's key (a method reference made once: it reads {@link #frame}). */
    private Flow newFlow(final byte[] source, final byte[] destination, final int q) {
        final Frame fr = frame;
        final Connection c = new Connection(name, evidenceCase, fr.number);
        c.recordedInconclusive = evidenceInconclusive;
        c.lastNs = fr.tsNs;
        final int eth = eth(fr.decoded);
        final Flow flow = new Flow(source, destination, q, fr.number, fr.tsNs, c, origin,
            FlowTable.sourceMac(fr.buffer, eth), eth < 0 ? 0 : FlowTable.mac(fr.buffer, eth));
        flow.judged = fr.judged;
        if (mode != Mode.AUTO) {
            c.tver = mode == Mode.LEGACY ? 0 : 1;
        } else {
            // mrct evidence: the QP's tver as its case set it, not as the first frame (maybe one it drops) shows it
            c.tver = cx.tver(flow);
        }
        if (releases != null && releases.created(flow)) {
            c.resumed = true;
            c.note(flow.label() + " resumes after an idle time longer than the window of "
                + Text.ago(releases.windowNs()) + ", where the analysis released its connection (issue 12): a new "
                + "segment, judged like a connection first seen mid-capture");
        }
        return flow;
    }

    private void dispatch(final Frame fr) {
        final Flow flow = fr.flow;
        if (fr.isCnp()) {
            flow.cnps++;
            if (fr.receivable) {
                cnps.onCnp(fr);
            }
            return;
        }
        if (fr.tver != 0 && fr.tver != 1) {
            return;
        }
        final boolean answer = fr.isResponse() && fr.decoded.layoutKnown();
        if (answer && flow.peer == null) {
            if (releases != null) {
                releases.releaseStale(flow.hostPair, fr.tsNs);
            }
            final Flow requester = flow.hostPair.requesterFor(flow, answerPsn(fr));
            if (requester != null) {
                HostPair.pair(requester, flow);
            }
        }
        if (fr.isData()) {
            flow.dataFrames++;
            flow.rate.data(fr.tsNs, fr.wireLength);
            cnps.onData(fr);
        }
        if (fr.isRequest() && (fr.opcode.isMetaRoceV1() || fr.memoryPlacement)) {
            final boolean firstTx = !flow.requests.started
                || !Psn.isBefore(fr.psn, flow.requests.next)
                || !flow.requests.ring.has(fr.psn, PsnRing.SENT);
            flow.requests.onRequest(fr, cx);
            flow.spray.onData(fr, firstTx, cx);
            if (fr.ecn == 3 && fr.receivable) {
                cnps.onCongestionIndication(fr);
            }
            return;
        }
        if (answer) {
            if (flow.responsePort < 0) {
                flow.responsePort = fr.sourcePort;
            } else if (flow.responsePort != fr.sourcePort) {
                flow.responsePortsVary = true;
            }
            if (fr.kind == OpKind.RDMA_READ_RESPONSE) {
                flow.spray.onData(fr, false, cx);
            }
            final Flow requester = flow.peer;
            final boolean indication = fr.kind == OpKind.RDMA_READ_RESPONSE && fr.ecn == 3 && fr.receivable
                && (requester == null || requester.requests.takesReadResponse(fr));
            if (requester != null) {
                requester.requests.onAnswer(fr, cx);
            } else {
                flow.connection.note("frame " + fr.number + " (" + fr.opcode.name() + ", PSN " + Text.psn(fr.psn)
                    + ") answers no request seen from " + flow.destinationText + ": the other direction is not in "
                    + "the capture, or starts later");
            }
            if (indication) {
                cnps.onCongestionIndication(fr);
            }
        }
    }

    /** The PSN an answer points at, for pairing: its cumulative point for an ACK, its own PSN otherwise. */
    private static int answerPsn(final Frame fr) {
        if (fr.kind == OpKind.ACKNOWLEDGE && fr.decoded.has(HeaderKind.SACKETH)) {
            return Psn.add(fr.decoded.sacketh().basePsn(), -1);
        }
        if (fr.kind == OpKind.ACKNOWLEDGE && fr.syndromeType() == AethSyndrome.Type.NAK) {
            return fr.psn;
        }
        return fr.psn;
    }

    /** A RoCE frame the decoder could not lay out: a violation of the rule its damage breaks. */
    private void malformed(final Frame fr) {
        final DecodedFrame d = fr.decoded;
        final DecodeError error = d.error();
        if (fr.cut && error == DecodeError.TRUNCATED) {
            return;
        }
        final int ipVersion = d.ipVersion();
        if (ipVersion == 0 || !d.has(HeaderKind.UDP) && error != DecodeError.IP_FRAGMENT
            && error != DecodeError.BAD_IP_HEADER && error != DecodeError.LENGTH_MISMATCH) {
            return;
        }
        final int dqpn = d.has(HeaderKind.BTH) ? BigEndian.u24(fr.buffer, d.offset(HeaderKind.BTH) + 5)
            : Flow.UNKNOWN_QP;
        if (d.has(HeaderKind.BTH)) {
            final int bth = d.offset(HeaderKind.BTH);
            fr.opcode = Opcode.valueOf(BigEndian.u8(fr.buffer, bth));
            fr.psn = BigEndian.u24(fr.buffer, bth + 9);
            fr.tver = BigEndian.u8(fr.buffer, bth + 1) & 0xF;
        } else {
            fr.opcode = Opcode.valueOf(0xFF);
            fr.psn = 0;
            fr.tver = -1;
        }
        fr.kind = fr.opcode.kind();
        fr.position = fr.opcode.position();
        fr.dqpn = dqpn;
        fr.readPleth();
        final Flow flow = flowOf(fr, ipVersion, dqpn);
        fr.flow = flow;
        flow.frames++;
        flow.bytes += fr.wireLength;
        final String field = d.failure().field();
        final Check check = OracleChecks.checkOfMalformed(fr);
        final String detail = d.failure().detail();
        final int at = d.failure().offset();
        Judge.observe(flow.connection, flow, check);
        cx.judge.report(flow.connection, flow, check, Basis.DEFINITE, fr,
            () -> "a malformed RoCE frame: " + error + " at byte " + at + " (" + field + "): " + detail, null,
            new FieldDiff(field, "a well-formed frame", error + ": " + detail));
    }

    /** Ends the analysis (or the current evidence case) and returns every connection, in order of first frame. */
    List<Connection> finish() {
        finishCase();
        if (cx.control != null) {
            try {
                cx.control.close();
            } catch (IOException e) {
                // the look-ahead reader only read
            }
            cx.control = null;
        }
        return finished;
    }

    private void finishCase() {
        for (final Flow flow : flows.flows()) {
            flow.requests.finishGaps(cx);
        }
        cnps.finish(lastNs);
        final List<Connection> connections = new ArrayList<>();
        final java.util.Set<Connection> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (final Flow flow : flows.flows()) {
            if (seen.add(flow.connection)) {
                connections.add(flow.connection);
            }
        }
        for (final Connection c : connections) {
            c.spraySummary(cx);
        }
        finished.addAll(connections);
        flows.clear();
        cnps.clear();
    }

    /** The capture's first timestamp, the origin of every series. */
    long origin() {
        return origin == Long.MIN_VALUE ? 0 : origin;
    }

    Path path() {
        return path;
    }

    String name() {
        return name;
    }

    Context context() {
        return cx;
    }
}
