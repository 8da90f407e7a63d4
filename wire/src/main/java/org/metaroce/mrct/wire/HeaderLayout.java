package org.metaroce.mrct.wire;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The extension headers that follow the BTH, by opcode and transport version (MetaRoCE v1 section HDR, opcode table;
 * RoCEv2 for TVer 0). Lookup is a table read; the arrays are shared and must not be modified by callers.
 *
 * <p>With TVer = 1 every RC request and every read response starts with PLETH, every RDMA WRITE packet carries RETH,
 * and the ACKNOWLEDGE carries SACKETH after AETH. With TVer = 0 the RoCEv2 layouts apply. An unknown opcode, or a TVer
 * other than 0 and 1, has no known layout ({@link #extensionHeaders} returns {@code null}).
 */
public final class HeaderLayout {
    /** TVer of plain RoCEv2. */
    public static final int TVER_ROCEV2 = 0;
    /** TVer of MetaRoCE v1. */
    public static final int TVER_METAROCE_V1 = 1;

    private static final HeaderKind[] NONE = new HeaderKind[0];
    private static final HeaderKind[][] ROCEV2 = new HeaderKind[256][];
    private static final HeaderKind[][] METAROCE = new HeaderKind[256][];

    static {
        for (final Opcode opcode : Opcode.known()) {
            ROCEV2[opcode.code()] = rocev2(opcode);
            METAROCE[opcode.code()] = metaroce(opcode);
        }
    }

    private HeaderLayout() {
    }

    /**
     * Extension headers after the BTH in wire order, or {@code null} when the layout is unknown (unassigned opcode, or
     * TVer not 0 or 1). The CNP's 16 reserved bytes appear as {@link HeaderKind#CNP_RESERVED}.
     */
    public static HeaderKind[] extensionHeaders(final Opcode opcode, final int tver) {
        if (tver == TVER_METAROCE_V1) {
            return METAROCE[opcode.code()];
        }
        if (tver == TVER_ROCEV2) {
            return ROCEV2[opcode.code()];
        }
        return null;
    }

    /** Same as {@link #extensionHeaders} as an unmodifiable list (empty when unknown). */
    public static List<HeaderKind> extensionHeaderList(final Opcode opcode, final int tver) {
        final HeaderKind[] kinds = extensionHeaders(opcode, tver);
        return kinds == null ? List.of() : List.of(kinds);
    }

    /** Total length of the extension headers, or -1 when the layout is unknown. */
    public static int extensionLength(final Opcode opcode, final int tver) {
        final HeaderKind[] kinds = extensionHeaders(opcode, tver);
        if (kinds == null) {
            return -1;
        }
        int length = 0;
        for (final HeaderKind kind : kinds) {
            length += kind.length();
        }
        return length;
    }

    /** True when packets with this opcode carry a payload (may still be zero bytes long). */
    public static boolean carriesPayload(final Opcode opcode) {
        switch (opcode.kind()) {
            case SEND:
            case RDMA_WRITE:
            case RDMA_READ_RESPONSE:
            case ATOMIC_WRITE:
                return true;
            default:
                return false;
        }
    }

    private static HeaderKind[] rocev2(final Opcode opcode) {
        final List<HeaderKind> kinds = new ArrayList<>(3);
        switch (opcode.kind()) {
            case SEND:
                if (opcode.transport() == Transport.UD) {
                    kinds.add(HeaderKind.DETH);
                }
                break;
            case RDMA_WRITE:
            case RDMA_READ_REQUEST:
                if (opcode.position().isFirst() || opcode.kind() == OpKind.RDMA_READ_REQUEST) {
                    kinds.add(HeaderKind.RETH);
                }
                break;
            case RDMA_READ_RESPONSE:
                if (opcode.position() != Position.MIDDLE) {
                    kinds.add(HeaderKind.AETH);
                }
                break;
            case ACKNOWLEDGE:
                kinds.add(HeaderKind.AETH);
                break;
            case ATOMIC_ACKNOWLEDGE:
                kinds.add(HeaderKind.AETH);
                kinds.add(HeaderKind.ATOMIC_ACK_ETH);
                break;
            case COMPARE_SWAP:
            case FETCH_ADD:
                kinds.add(HeaderKind.ATOMIC_ETH);
                break;
            case FLUSH:
                kinds.add(HeaderKind.FETH);
                kinds.add(HeaderKind.RETH);
                break;
            case ATOMIC_WRITE:
                kinds.add(HeaderKind.RETH);
                break;
            case CNP:
                kinds.add(HeaderKind.CNP_RESERVED);
                break;
            default:
                break;
        }
        addImmediateOrInvalidate(opcode, kinds);
        return kinds.isEmpty() ? NONE : kinds.toArray(NONE);
    }

    private static HeaderKind[] metaroce(final Opcode opcode) {
        if (!opcode.isMetaRoceV1()) {
            // UC, UD, FLUSH, ATOMIC WRITE and the CNP keep their RoCEv2 layout whatever the TVer says.
            return rocev2(opcode);
        }
        final List<HeaderKind> kinds = new ArrayList<>(3);
        switch (opcode.kind()) {
            case SEND:
                kinds.add(HeaderKind.PLETH);
                break;
            case RDMA_WRITE:
            case RDMA_READ_REQUEST:
                kinds.add(HeaderKind.PLETH);
                kinds.add(HeaderKind.RETH);
                break;
            case RDMA_READ_RESPONSE:
                kinds.add(HeaderKind.PLETH);
                if (opcode.position() != Position.MIDDLE) {
                    kinds.add(HeaderKind.AETH);
                }
                break;
            case ACKNOWLEDGE:
                kinds.add(HeaderKind.AETH);
                kinds.add(HeaderKind.SACKETH);
                break;
            case ATOMIC_ACKNOWLEDGE:
                kinds.add(HeaderKind.AETH);
                kinds.add(HeaderKind.ATOMIC_ACK_ETH);
                break;
            case COMPARE_SWAP:
            case FETCH_ADD:
                kinds.add(HeaderKind.PLETH);
                kinds.add(HeaderKind.ATOMIC_ETH);
                break;
            default:
                break;
        }
        addImmediateOrInvalidate(opcode, kinds);
        return kinds.toArray(NONE);
    }

    private static void addImmediateOrInvalidate(final Opcode opcode, final List<HeaderKind> kinds) {
        if (opcode.hasImmediate()) {
            kinds.add(HeaderKind.IMMDT);
        }
        if (opcode.hasInvalidate()) {
            kinds.add(HeaderKind.IETH);
        }
    }

    /** Debug form of a layout, e.g. {@code [PLETH, RETH, IMMDT]}. */
    public static String describe(final HeaderKind[] kinds) {
        return kinds == null ? "unknown" : Arrays.toString(kinds);
    }
}
