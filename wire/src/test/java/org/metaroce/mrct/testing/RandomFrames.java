package org.metaroce.mrct.testing;

import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.HeaderLayout;
import org.metaroce.mrct.wire.Opcode;

/** A small generator of valid random RoCE frames for property tests. */
public final class RandomFrames {
    private final SplittableRandom random;

    public RandomFrames(final SplittableRandom random) {
        this.random = random;
    }

    /** A random encapsulation: IPv4, IPv6 or RoCEv1, with or without a VLAN tag. */
    public Encapsulation encapsulation() {
        final int kind = random.nextInt(5);
        Encapsulation e;
        if (kind <= 1) {
            e = Encapsulation.ipv4(ipv4(), ipv4());
        } else if (kind <= 3) {
            e = Encapsulation.ipv6(ipv6(), ipv6());
        } else {
            e = Encapsulation.roceV1(ipv6(), ipv6());
        }
        e = e.withMacs(random.nextLong() & 0xFEFF_FFFF_FFFFL, random.nextLong() & 0xFEFF_FFFF_FFFFL)
            .withDscp(random.nextInt(64)).withTtl(1 + random.nextInt(255))
            .withUdpSourcePort(0xC000 + random.nextInt(0x4000));
        if (e.network() != Encapsulation.Network.IPV4) {
            e = e.withFlowLabel(random.nextInt(1 << 20));
        }
        if (random.nextInt(3) == 0) {
            e = e.withVlan(random.nextInt(4095), random.nextInt(8));
        }
        return e;
    }

    /** A random known opcode with a TVer that has a layout for it. */
    public Opcode opcode() {
        final List<Opcode> known = Opcode.known();
        return known.get(random.nextInt(known.size()));
    }

    /** A random valid frame builder. */
    public FrameBuilder frame() {
        final Opcode opcode = opcode();
        final int tver = opcode == Opcode.CNP ? 0 : random.nextInt(2);
        final int payloadLength = HeaderLayout.carriesPayload(opcode) ? random.nextInt(2) == 0 ? random.nextInt(9)
            : random.nextInt(4097) : 0;
        final byte[] payload = new byte[payloadLength];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) random.nextInt(256);
        }
        return FrameBuilder.of(encapsulation(), opcode).tver(tver).payload(payload).ecn(random.nextInt(4))
            .psn(random.nextInt(1 << 24)).destQp(random.nextInt(1 << 24))
            .with("bth.pkey", random.nextInt(1 << 16)).with("bth.se", random.nextInt(2))
            .with("bth.ackreq", random.nextInt(2)).with("bth.fecn", random.nextInt(2))
            .with("bth.becn", random.nextInt(2));
    }

    private String ipv4() {
        return String.format(Locale.ROOT, "%d.%d.%d.%d", 1 + random.nextInt(223), random.nextInt(256),
            random.nextInt(256), 1 + random.nextInt(254));
    }

    private String ipv6() {
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i > 0) {
                text.append(':');
            }
            text.append(Integer.toHexString(i == 0 ? 0x2001 : random.nextInt(0x10000)));
        }
        return text.toString();
    }

    /** The generator behind this one. */
    public SplittableRandom random() {
        return random;
    }
}
