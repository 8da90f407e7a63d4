package org.metaroce.mrct.analyzer.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.result.EvidenceComment;
import org.metaroce.mrct.wire.capture.CaptureFormat;
import org.metaroce.mrct.wire.capture.CaptureReader;

/**
 * The records of an mrct evidence file with each case's frames in the order of their stamps, at the stamps the run
 * judged them by: what the live engine judged, so that {@code mrct analyze} of the evidence judges the same sequence.
 *
 * <p>Why: the evidence writer keeps a case's frames in the order the harness recorded them (so that the frame numbers
 * the reports give are Wireshark's) and never lets a record's timestamp go back (so it clamps it to the one before). On
 * virtual time that order is the stamps' order. On a real-time adapter it need not be: the harness records a frame it
 * sends when it sends it, and one from the device when its receive path takes it, stamped when it arrived, which can
 * be earlier than a frame the harness recorded before it (after a pause of the receive path, for instance). The
 * live engine judges in the stamps' order ({@code HeldAnswers}); judged in file order with the clamped timestamps, a
 * device's retransmission that left before the harness's ACK reached it looked like one sent after the ACK (MR-RTX-001,
 * "sent again although frame 87 (1.02 ms before) showed it delivered": over UDP, LEG-009-tail-loss-go-back-n, live
 * PASS). The stamp is in each frame's comment ({@code time=}, nanoseconds from the case's start); the writer put the
 * case's first frame at its case base plus that stamp (never below the base), so every frame's unclamped time is that
 * base plus its own stamp.
 *
 * <p>A case's frames are held until the case ends (a record of another case, a control record, the end of the file
 * or damage, after which the frames before it are still delivered), then handed on sorted by time; frames with the
 * same time keep their file order, so virtual-time evidence comes out exactly as it is in the file; a case with a frame
 * that has no stamp (not written by the evidence writer) keeps its file order and timestamps. Records keep their
 * record numbers, so findings name the frames Wireshark shows. At most {@link #MAX_HELD} frames are held: a longer
 * case is sorted in runs of that many, in file order between runs. Records that are not frames of a case (control and
 * memory records, anything without an evidence comment) pass through in file order.
 */
final class EvidenceOrder implements CaptureReader {
    /** The most frames of one case held for sorting at once (a case of the bundled suite has at most ~4,300). */
    static final int MAX_HELD = 1 << 16;

    /** One record, copied out of the reader's buffer. */
    private static final class Held {
        long number;
        long byteOffset;
        long timestamp;
        boolean timestampKnown;
        int interfaceId;
        int linkType;
        int snapLength;
        int fcsLength;
        String interfaceName;
        long originalLength;
        ByteBuffer bytes;
        String comment;
        String sectionComment;
        CaptureFormat format;
        boolean bigEndian;
    }

    private final CaptureReader inner;
    private final List<Held> pending = new ArrayList<>();
    private final ArrayDeque<Held> ready = new ArrayDeque<>();
    private String pendingCase;
    private long caseBase;
    /** Whether a frame held has no stamp: then the frames held keep their file order. */
    private boolean unstamped;
    private Held current;
    private boolean innerDone;
    private IOException failure;

    /**
     * Reads {@code inner}, an evidence file; when {@code first} is true, the record {@code inner} has current is the
     * first record to deliver (it was read to tell that the file is evidence).
     */
    EvidenceOrder(final CaptureReader inner, final boolean first) {
        this.inner = inner;
        if (first) {
            take(copy(inner));
        }
    }

    @Override
    public boolean next() throws IOException {
        while (ready.isEmpty()) {
            if (innerDone) {
                current = null;
                if (failure != null) {
                    throw failure;
                }
                return false;
            }
            pull();
        }
        current = ready.pollFirst();
        return true;
    }

    private void pull() {
        final boolean more;
        try {
            more = inner.next();
        } catch (IOException e) {
            failure = e;
            innerDone = true;
            release();
            return;
        }
        if (!more) {
            innerDone = true;
            release();
            return;
        }
        take(copy(inner));
    }

    /** Holds a frame of a case, or releases what is held and passes any other record on. */
    private void take(final Held h) {
        final Map<String, String> fields = fields(h.comment);
        final String kase = fields == null ? null : fields.get("case");
        final String dir = fields == null ? null : fields.get("dir");
        if (kase == null || !("to-dut".equals(dir) || "from-dut".equals(dir))) {
            release();
            ready.addLast(h);
            return;
        }
        final long stamp = stamp(fields.get("time"));
        if (!kase.equals(pendingCase)) {
            release();
            pendingCase = kase;
            // the writer's rule: the case's first frame lies at the case's base plus its stamp (never below the base)
            caseBase = stamp == Long.MIN_VALUE ? Long.MIN_VALUE : h.timestamp - Math.max(0, stamp);
        } else if (pending.size() >= MAX_HELD) {
            release();
        }
        if (stamp != Long.MIN_VALUE && caseBase != Long.MIN_VALUE && h.timestampKnown) {
            h.timestamp = caseBase + Math.max(0, stamp);
        } else {
            unstamped = true;
        }
        pending.add(h);
    }

    /**
     * Hands on the frames held, in the order of their times (ties in file order); in file order when one of them has no
     * stamp (evidence not written by the evidence writer, or edited): its record's timestamp says nothing of order.
     */
    private void release() {
        if (pending.isEmpty()) {
            return;
        }
        if (!unstamped) {
            pending.sort(Comparator.comparingLong(h -> h.timestamp)); // stable: ties keep their file order
        }
        ready.addAll(pending);
        pending.clear();
        unstamped = false;
    }

    private static Map<String, String> fields(final String comment) {
        if (!EvidenceComment.isEvidence(comment)) {
            return null;
        }
        try {
            return EvidenceComment.parse(comment);
        } catch (IllegalArgumentException e) {
            return null; // not a comment the writer wrote: the record keeps its place and its timestamp
        }
    }

    /** The frame's stamp from its {@code time} field, or {@link Long#MIN_VALUE} when it has none that reads. */
    private static long stamp(final String time) {
        if (time == null || time.isEmpty()) {
            return Long.MIN_VALUE;
        }
        try {
            return Long.parseLong(time);
        } catch (NumberFormatException e) {
            return Long.MIN_VALUE;
        }
    }

    private static Held copy(final CaptureReader r) {
        final Held h = new Held();
        h.number = r.recordNumber();
        h.byteOffset = r.byteOffset();
        h.timestamp = r.timestampNanos();
        h.timestampKnown = r.timestampKnown();
        h.interfaceId = r.interfaceId();
        h.linkType = r.linkType();
        h.snapLength = r.snapLength();
        h.fcsLength = r.fcsLength();
        h.interfaceName = r.interfaceName();
        h.originalLength = r.originalLength();
        final byte[] bytes = new byte[r.capturedLength()];
        r.buffer().get(r.offset(), bytes);
        h.bytes = ByteBuffer.wrap(bytes).asReadOnlyBuffer();
        h.comment = r.comment();
        h.sectionComment = r.sectionComment();
        h.format = r.format();
        h.bigEndian = r.bigEndian();
        return h;
    }

    @Override
    public long recordNumber() {
        return current.number;
    }

    @Override
    public long byteOffset() {
        return current.byteOffset;
    }

    @Override
    public long timestampNanos() {
        return current.timestamp;
    }

    @Override
    public boolean timestampKnown() {
        return current.timestampKnown;
    }

    @Override
    public int interfaceId() {
        return current.interfaceId;
    }

    @Override
    public int linkType() {
        return current.linkType;
    }

    @Override
    public int snapLength() {
        return current.snapLength;
    }

    @Override
    public int fcsLength() {
        return current.fcsLength;
    }

    @Override
    public String interfaceName() {
        return current.interfaceName;
    }

    @Override
    public int capturedLength() {
        return current.bytes.capacity();
    }

    @Override
    public long originalLength() {
        return current.originalLength;
    }

    @Override
    public ByteBuffer buffer() {
        return current.bytes;
    }

    @Override
    public int offset() {
        return 0;
    }

    @Override
    public String comment() {
        return current.comment;
    }

    @Override
    public String sectionComment() {
        return current == null ? inner.sectionComment() : current.sectionComment;
    }

    @Override
    public CaptureFormat format() {
        return current == null ? inner.format() : current.format;
    }

    @Override
    public boolean bigEndian() {
        return current == null ? inner.bigEndian() : current.bigEndian;
    }

    @Override
    public Path path() {
        return inner.path();
    }

    @Override
    public void close() throws IOException {
        inner.close();
    }
}
