"""Crafts pcap captures of RoCEv2 traffic as real stacks send it, one capture per behaviour, for CraftedStacksTest.

Usage: rocev2_stacks.py OUTDIR   (writes OUTDIR/<name>.pcap for every capture below, and prints the names)

Run with Debian's /usr/bin/python3, for which python3-scapy is installed. Every frame is plain RoCEv2 over IPv4
(TVer 0, UDP port 4791, ICRC computed by scapy.contrib.roce); the extension headers are packed here from their
InfiniBand layouts. Each capture says where the behaviour it shows comes from. All but the last are legal RoCEv2 and
must analyse without a violation; the last mixes legal out-of-scope traffic with one real RC violation. Nothing is
random: the same script writes the same bytes.
"""
import struct
import sys
from pathlib import Path

from scapy.contrib.roce import BTH
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Raw
from scapy.utils import wrpcap

T0 = 1_700_000_000.0
A = ("02:00:00:00:01:01", "10.9.0.1")
B = ("02:00:00:00:01:02", "10.9.0.2")

# Opcodes (InfiniBand opcode space, as Wireshark's packet-infiniband.c names them): RC 0x00-0x1F, UC 0x20-0x3F,
# UD 0x60-0x7F, CNP 0x81.
RC_SEND_ONLY, RC_WRITE_FIRST, RC_WRITE_MIDDLE, RC_WRITE_LAST, RC_WRITE_ONLY = 0x04, 0x06, 0x07, 0x08, 0x0A
RC_READ_REQUEST, RC_READ_FIRST, RC_READ_MIDDLE, RC_READ_LAST, RC_READ_ONLY = 0x0C, 0x0D, 0x0E, 0x0F, 0x10
RC_ACK, RC_ATOMIC_ACK, RC_FETCH_ADD = 0x11, 0x12, 0x14
RC_FLUSH, RC_ATOMIC_WRITE = 0x1C, 0x1D  # InfiniBand's memory placement extensions (IBTA 1.5)
UC_SEND_FIRST, UC_SEND_MIDDLE, UC_SEND_LAST, UC_SEND_ONLY_IMM = 0x20, 0x21, 0x22, 0x25
UC_WRITE_FIRST, UC_WRITE_LAST, UC_WRITE_ONLY = 0x26, 0x28, 0x2A
UD_SEND_ONLY, UD_SEND_ONLY_IMM = 0x64, 0x65
CNP = 0x81
GSI_QKEY = 0x80010000  # the well-known Q_Key of QP1


def reth(va, rkey, length):
    return struct.pack("!QII", va, rkey, length)


def aeth(syndrome, msn):
    return struct.pack("!I", (syndrome << 24) | msn)


def deth(qkey, src_qp):
    return struct.pack("!II", qkey, src_qp)


def atomiceth(va, rkey, add):
    return struct.pack("!QIQQ", va, rkey, add, 0)


class Capture:
    """The frames of one capture, in time order, with a clock in microseconds."""

    def __init__(self):
        self.frames = []
        self.us = 0.0
        self.ip_id = 0x100

    def add(self, src, dst, sport, opcode, dqpn, psn, ext=b"", payload=b"", ackreq=0, migreq=0, tos=0,
            resv7=0, gap_us=2.0):
        """One RoCEv2 frame from src to dst, gap_us after the previous one."""
        pad = (-len(payload)) & 3
        bth = BTH(opcode=opcode, migreq=migreq, padcount=pad, version=0, pkey=0xFFFF, becn=1 if opcode == CNP else 0,
                  dqpn=dqpn, ackreq=ackreq, resv7=resv7, psn=psn & 0xFFFFFF)
        self.ip_id = (self.ip_id + 1) & 0xFFFF
        frame = (Ether(src=src[0], dst=dst[0]) / IP(src=src[1], dst=dst[1], flags="DF", ttl=64, tos=tos,
                                                     id=self.ip_id)
                 / UDP(sport=sport, dport=4791, chksum=0) / bth / Raw(ext + payload + b"\0" * pad))
        self.us += gap_us
        frame.time = T0 + self.us / 1e6
        self.frames.append(frame)

    def raw_udp(self, src, dst, sport, payload, gap_us=2.0):
        """A UDP datagram to port 4791 that carries payload, not a BTH."""
        self.ip_id = (self.ip_id + 1) & 0xFFFF
        frame = (Ether(src=src[0], dst=dst[0]) / IP(src=src[1], dst=dst[1], flags="DF", ttl=64, id=self.ip_id)
                 / UDP(sport=sport, dport=4791) / Raw(payload))
        self.us += gap_us
        frame.time = T0 + self.us / 1e6
        self.frames.append(frame)


class Rc:
    """One RC connection: a requester QP on host a and a responder QP on host b, TVer 0, go-back-N, in order."""

    def __init__(self, cap, a, b, qp_a, qp_b, psn, sport_a, sport_b, pmtu=1024, migreq=0, tos=0,
                 ack_syndrome=lambda msn: 0x1F):
        self.cap, self.a, self.b = cap, a, b
        self.qp_a, self.qp_b = qp_a, qp_b
        self.psn, self.msn = psn, 0
        self.sport_a, self.sport_b = sport_a, sport_b
        self.pmtu, self.migreq, self.tos = pmtu, migreq, tos
        self.ack_syndrome = ack_syndrome

    def request(self, opcode, ext=b"", payload=b"", ackreq=0, resv7=0, tos=None):
        self.cap.add(self.a, self.b, self.sport_a, opcode, self.qp_b, self.psn, ext, payload, ackreq,
                     self.migreq, self.tos if tos is None else tos, resv7)
        self.psn += 1

    def respond(self, opcode, psn, ext=b"", payload=b"", gap_us=5.0):
        self.cap.add(self.b, self.a, self.sport_b, opcode, self.qp_a, psn, ext, payload, 0, self.migreq,
                     self.tos if opcode != RC_ACK else 0, gap_us=gap_us)

    def ack(self):
        self.msn += 1
        self.respond(RC_ACK, self.psn - 1, aeth(self.ack_syndrome(self.msn), self.msn))

    def write(self, length, ce_at=(), resv7_at=None):
        chunks = [length - i if length - i < self.pmtu else self.pmtu for i in range(0, length, self.pmtu)]
        for i, size in enumerate(chunks):
            last = i == len(chunks) - 1
            if len(chunks) == 1:
                opcode, ext = RC_WRITE_ONLY, reth(0x7F0000001000, 0x1234, length)
            elif i == 0:
                opcode, ext = RC_WRITE_FIRST, reth(0x7F0000001000, 0x1234, length)
            else:
                opcode, ext = (RC_WRITE_LAST if last else RC_WRITE_MIDDLE), b""
            self.request(opcode, ext, bytes([i + 1]) * size, ackreq=1 if last else 0,
                         resv7=1 if resv7_at == i else 0, tos=(self.tos | 3) if i in ce_at else None)
        self.ack()

    def send(self, length, resv7=0):
        self.request(RC_SEND_ONLY, b"", b"\x5a" * length, ackreq=1, resv7=resv7)
        self.ack()

    def read(self, length):
        first = self.psn
        self.request(RC_READ_REQUEST, reth(0x7F0000002000, 0x5678, length), ackreq=1)
        count = max(1, -(-length // self.pmtu))
        self.psn = first + count
        self.msn += 1
        for i in range(count):
            size = min(self.pmtu, length - i * self.pmtu)
            if count == 1:
                opcode, ext = RC_READ_ONLY, aeth(self.ack_syndrome(self.msn), self.msn)
            elif i == 0:
                opcode, ext = RC_READ_FIRST, aeth(self.ack_syndrome(self.msn), self.msn)
            elif i == count - 1:
                opcode, ext = RC_READ_LAST, aeth(self.ack_syndrome(self.msn), self.msn)
            else:
                opcode, ext = RC_READ_MIDDLE, b""
            self.respond(opcode, first + i, ext, bytes([0x30 + i]) * size, gap_us=5.0 if i == 0 else 2.0)

    def fetch_add(self, add):
        psn = self.psn
        self.request(RC_FETCH_ADD, atomiceth(0x7F0000003000, 0x9ABC, add), ackreq=1)
        self.msn += 1
        self.respond(RC_ATOMIC_ACK, psn, aeth(self.ack_syndrome(self.msn), self.msn) + struct.pack("!Q", 41))


    def flush(self, selectivity=1, level=1):
        """FLUSH (0x1C): a FETH (placement type and selectivity in its low bits) then a RETH, no payload; answered
        as Linux rxe answers it (rxe_resp.c), with an RDMA READ RESPONSE ONLY carrying an AETH and no payload."""
        psn = self.psn
        feth = struct.pack("!I", ((selectivity & 0xF) << 4) | (level & 0xF))
        self.request(RC_FLUSH, feth + reth(0x7F0000001000, 0x1234, 4096), ackreq=1)
        self.msn += 1
        self.respond(RC_READ_ONLY, psn, aeth(self.ack_syndrome(self.msn), self.msn))

    def atomic_write(self, value, extra=b""):
        """ATOMIC WRITE (0x1D): a RETH (length 8) and the 8-byte value as payload; answered, as rxe does, with an
        RDMA READ RESPONSE ONLY carrying an AETH and no payload. extra: bytes beyond the 8 (a malformed frame)."""
        psn = self.psn
        self.request(RC_ATOMIC_WRITE, reth(0x7F0000001008, 0x1234, 8), struct.pack("!Q", value) + extra, ackreq=1)
        self.msn += 1
        self.respond(RC_READ_ONLY, psn, aeth(self.ack_syndrome(self.msn), self.msn))


def rxe_sport(qpn):
    """Linux rxe (drivers/infiniband/sw/rxe/rxe_qp.c): 0xC000 plus 14 bits of the kernel's hash_32 of the QPN."""
    return 0xC000 + ((((qpn * 0x61C88647) & 0xFFFFFFFF) >> 18) & 0x3FFF)


def cm_mad(attribute, tid, local_qpn=0, starting_psn=0):
    """A 256-byte connection manager MAD (InfiniBand 12.6 and 13.4.2): base version 1, class 0x07, class version 2,
    method Send (0x03), the attribute (REQ 0x0010, REP 0x0013, RTU 0x0014, DREQ 0x0015, DREP 0x0016)."""
    header = struct.pack("!BBBBHHQHHI", 1, 0x07, 2, 0x03, 0, 0, tid, attribute, 0, 0)
    body = bytearray(232)
    struct.pack_into("!I", body, 0, 0x1000 + tid)  # local communication ID
    if attribute in (0x0010, 0x0013):
        struct.pack_into("!I", body, 12, local_qpn << 8)
        struct.pack_into("!I", body, 24 if attribute == 0x0010 else 20, starting_psn << 8)
    return header + bytes(body)


def rxe_rc():
    """Linux rxe (drivers/infiniband/sw/rxe: rxe_req.c, rxe_resp.c, rxe_qp.c): RC WRITE, SEND, READ and FETCH ADD with
    MigReq 0, P_Key 0xFFFF, Not-ECT, ACK syndrome 0x1F and one hashed source port per QP in 0xC000-0xFFFF."""
    cap = Capture()
    rc = Rc(cap, A, B, 0x11, 0x12, 0x3A0000, rxe_sport(0x11), rxe_sport(0x12))
    rc.write(3000)
    rc.send(64)
    rc.read(2500)
    rc.fetch_add(5)
    rc.write(100)
    return cap


def rxe_mpe():
    """Linux rxe from 6.2 (rxe_req.c, rxe_resp.c, rxe_opcode.c): InfiniBand's memory placement extensions, FLUSH and
    ATOMIC WRITE, between plain RC WRITEs and a READ on the same connection."""
    cap = Capture()
    rc = Rc(cap, A, B, 0x21, 0x22, 0x120000, rxe_sport(0x21), rxe_sport(0x22))
    rc.write(2000)
    rc.atomic_write(0x1122334455667788)
    rc.flush()
    rc.read(100)
    rc.atomic_write(7)
    rc.write(64)
    return cap


def rxe_mpe_long_atomic_write():
    """As rxe_mpe, but the second ATOMIC WRITE carries 16 bytes: InfiniBand's layout allows exactly 8."""
    cap = Capture()
    rc = Rc(cap, A, B, 0x21, 0x22, 0x120000, rxe_sport(0x21), rxe_sport(0x22))
    rc.write(2000)
    rc.atomic_write(0x1122334455667788)
    rc.flush()
    rc.atomic_write(7, extra=b"\0" * 8)
    rc.write(64)
    return cap


def hwnic_rc():
    """A hardware NIC (ConnectX-style): MigReq 1 in every packet (InfiniBand APM: a QP starts in the Migrated state,
    whose packets carry MigReq 1); UDP source ports hashed from the flow label into any value, below 0xC000 too
    (RoCEv2, IBTA Annex A17, leaves the port to the sender as entropy); data sent ECT(0) with DSCP 26 (traffic class
    106, DCQCN enabled); ACK syndromes carrying an end-to-end credit count (InfiniBand AETH: 0b000CCCCC)."""
    cap = Capture()
    credits = lambda msn: 0x08 + msn % 8
    rc = Rc(cap, A, B, 0x000C41, 0x000D07, 0x7A1B2C, 0x3C41, 0x8D17, pmtu=1024, migreq=1, tos=0x6A,
            ack_syndrome=credits)
    rc.write(4096)
    rc.read(3000)
    rc.send(256)
    rc.fetch_add(1)
    other = Rc(cap, A, B, 0x000C42, 0x000D08, 0x000100, 0x1205, 0xF00D, migreq=1, tos=0x6A,
               ack_syndrome=credits)
    other.write(2048)
    other.send(16)
    return cap


def ecn_cnp():
    """ECN on data as a DCQCN notification point answers it (IBTA Annex A17.9, ConnectX-style): data ECT(0), a switch
    marks two packets CE, the responder sends a CNP (opcode 0x81, BECN 1, P_Key 0xFFFF, PSN 0, 16 zero bytes) to the
    requester QP, with DSCP 48 (traffic class 192)."""
    cap = Capture()
    rc = Rc(cap, A, B, 0x21, 0x22, 0x10, 0xD001, 0xD002, tos=0x6A)
    rc.write(3072, ce_at=(1,))
    cap.add(B, A, 0xE555, CNP, 0x21, 0, b"\0" * 16, tos=0xC0, gap_us=1.0)
    rc.write(2048)
    cap.us += 60  # the next CE mark comes after cnp_interval_ns (50 us by default), so it gets its own CNP
    rc.write(3072, ce_at=(2,))
    cap.add(B, A, 0xE555, CNP, 0x21, 0, b"\0" * 16, tos=0xC0, gap_us=1.0)
    return cap


def ecn_no_cnp():
    """ECN-capable data whose CE marks no CNP answers (RoCEv2 congestion control is optional: Linux rxe implements no
    notification point): ECT(0) data, one CE mark, no CNP."""
    cap = Capture()
    rc = Rc(cap, A, B, 0x31, 0x32, 0x20, rxe_sport(0x31), rxe_sport(0x32), tos=0x02)
    rc.write(3072, ce_at=(1,))
    rc.write(1024)
    return cap


def uc_traffic():
    """The unreliable connected service (opcodes 0x20-0x2B of Wireshark's packet-infiniband.c; rdma-core's
    IBV_QPT_UC): a 3-packet SEND, a SEND ONLY WITH IMMEDIATE, a 2-packet RDMA WRITE and a WRITE ONLY; no ACKs."""
    cap = Capture()
    sport = rxe_sport(0x41)
    psn = 0x500
    for opcode, ext, size in ((UC_SEND_FIRST, b"", 1024), (UC_SEND_MIDDLE, b"", 1024), (UC_SEND_LAST, b"", 200),
                              (UC_SEND_ONLY_IMM, struct.pack("!I", 0xCAFE), 64),
                              (UC_WRITE_FIRST, reth(0x7F0000004000, 0x77, 1500), 1024), (UC_WRITE_LAST, b"", 476),
                              (UC_WRITE_ONLY, reth(0x7F0000005000, 0x77, 32), 32)):
        cap.add(A, B, sport, opcode, 0x42, psn, ext, b"\x11" * size)
        psn += 1
    return cap


def ud_traffic():
    """The unreliable datagram service (rdma-core IBV_QPT_UD, Wireshark's packet-infiniband.c): SEND ONLY and SEND ONLY
    WITH IMMEDIATE, each with a DETH (Q_Key, source QP) and, with immediate data, ImmDt after it."""
    cap = Capture()
    for i in range(4):
        cap.add(A, B, rxe_sport(0x51), UD_SEND_ONLY, 0x52, 0x900 + i, deth(0x11111111, 0x51), b"\x22" * 512)
        cap.add(B, A, rxe_sport(0x52), UD_SEND_ONLY_IMM, 0x51, 0x300 + i,
                deth(0x11111111, 0x52) + struct.pack("!I", i), b"\x33" * 128)
    return cap


def rdma_cm(resv7_at=None):
    """An rdma_cm connection (librdmacm over the kernel's ib_cm): REQ, REP and RTU MADs sent as UD SEND ONLY to QP1
    (DETH Q_Key 0x80010000, source QP 1), then RC traffic on the QPs they named, then DREQ and DREP."""
    cap = Capture()
    mad = lambda src, dst, attribute, tid, psn, qpn=0, start=0: cap.add(
        src, dst, 0xC0C0, UD_SEND_ONLY, 1, psn, deth(GSI_QKEY, 1), cm_mad(attribute, tid, qpn, start), gap_us=40)
    mad(A, B, 0x0010, 1, 0, 0x61, 0x1000)
    mad(B, A, 0x0013, 1, 0, 0x62, 0x2000)
    mad(A, B, 0x0014, 1, 1)
    rc = Rc(cap, A, B, 0x61, 0x62, 0x2000, rxe_sport(0x61), rxe_sport(0x62))
    rc.send(64)
    rc.write(2048, resv7_at=resv7_at)
    rc.read(1024)
    mad(A, B, 0x0015, 2, 2)
    mad(B, A, 0x0016, 2, 1)
    return cap


def lookalikes():
    """Datagrams to UDP port 4791 that carry no BTH (another protocol on the port, a scanner's probe): 8 and 12 bytes
    (too short for a BTH and an ICRC), and 60 bytes whose second byte makes bth.tver 10 with no matching ICRC; beside
    them a short legal RC exchange."""
    cap = Capture()
    cap.raw_udp(A, B, 40000, b"PROBE\0\0\1")
    cap.raw_udp(B, A, 40001, bytes(range(12)))
    cap.raw_udp(A, B, 40002, bytes([0x04, 0x0A]) + bytes((i * 37) & 0xFF for i in range(58)))
    rc = Rc(cap, A, B, 0x71, 0x72, 0x40, rxe_sport(0x71), rxe_sport(0x72))
    rc.send(32)
    return cap


def mixed_with_rc_violation():
    """Every out-of-scope kind above beside RC traffic that breaks MR-WIRE-013 once (bth.resv7 1 in the second packet
    of a WRITE, a reserved field RoCEv2 sends as 0): the violation must still be found."""
    cap = rdma_cm(resv7_at=1)
    for extra in (uc_traffic(), ud_traffic(), lookalikes()):
        for frame in extra.frames:
            cap.us += 3
            frame.time = T0 + cap.us / 1e6
            cap.frames.append(frame)
    return cap


CAPTURES = {
    "rxe_rc": rxe_rc,
    "rxe_mpe": rxe_mpe,
    "rxe_mpe_long_atomic_write": rxe_mpe_long_atomic_write,
    "hwnic_rc": hwnic_rc,
    "ecn_cnp": ecn_cnp,
    "ecn_no_cnp": ecn_no_cnp,
    "uc_traffic": uc_traffic,
    "ud_traffic": ud_traffic,
    "rdma_cm": rdma_cm,
    "lookalikes": lookalikes,
    "mixed_with_rc_violation": mixed_with_rc_violation,
}

if __name__ == "__main__":
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, make in CAPTURES.items():
        wrpcap(str(out / (name + ".pcap")), make().frames)
        print(name)
