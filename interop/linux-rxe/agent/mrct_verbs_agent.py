#!/usr/bin/python3
"""An mrct control agent (adapters/socket/PROTOCOL.md, version 1) on real verbs: libibverbs through python3-pyverbs.

It drives one RDMA device (Linux soft-RoCE, rxe0, in the interop/linux-rxe lab) for the harness: protection domains,
RC QPs moved through their states with the harness's PSNs, GIDs and MAC, memory regions, work requests, completions,
memory reads and writes, and the device's counters. A NIC vendor copies this file for their own device: the protocol
side (framing, hello, token, limits, errors: mrct_agent_protocol.py) stays as it is, the Device class is the part to
adapt.

What verbs cannot do is said, never faked: an operation or attribute the device lacks is answered `unsupported`
(the harness makes the case NOT_APPLICABLE, naming it); a call the device refuses is `rejected`.

Usage: mrct_verbs_agent.py --listen ADDR:PORT --token-file FILE --ipv4 ADDR [--device rxe0] [--netdev eth0]

mrct_agent_protocol.py beside it is the protocol half, kept as it is; this file is the device half.
"""
import argparse
import base64
import collections
import os
import socket
import subprocess
import sys
import threading
import time

import pyverbs.enums as e
from pyverbs.addr import AHAttr, GID, GlobalRoute
from pyverbs.cq import CQ
from pyverbs.device import Context
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.pyverbs_error import PyverbsError, PyverbsRDMAError
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr
from pyverbs.wr import SGE, RecvWR, SendWR

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mrct_agent_protocol import AgentError, arg, bad, hex64, log, rejected, serve, unsupported  # noqa: E402

PORT = 1
# ECT(0) in the two low bits of the IP TOS byte (RFC 3168)
ECT0 = 0b10
QUEUE_DEPTH = 256



STATES = {"reset": e.IBV_QPS_RESET, "init": e.IBV_QPS_INIT, "rtr": e.IBV_QPS_RTR, "rts": e.IBV_QPS_RTS,
          "error": e.IBV_QPS_ERR}
STATE_NAMES = {e.IBV_QPS_RESET: "reset", e.IBV_QPS_INIT: "init", e.IBV_QPS_RTR: "rtr", e.IBV_QPS_RTS: "rts",
               e.IBV_QPS_SQE: "error", e.IBV_QPS_ERR: "error"}
MTUS = {256: e.IBV_MTU_256, 512: e.IBV_MTU_512, 1024: e.IBV_MTU_1024, 2048: e.IBV_MTU_2048, 4096: e.IBV_MTU_4096}
ACCESS = {"local_write": e.IBV_ACCESS_LOCAL_WRITE, "remote_write": e.IBV_ACCESS_REMOTE_WRITE,
          "remote_read": e.IBV_ACCESS_REMOTE_READ, "remote_atomic": e.IBV_ACCESS_REMOTE_ATOMIC}
SEND_OPCODES = {"send": e.IBV_WR_SEND, "send_with_imm": e.IBV_WR_SEND_WITH_IMM, "send_with_inv": e.IBV_WR_SEND_WITH_INV,
                "rdma_write": e.IBV_WR_RDMA_WRITE, "rdma_write_with_imm": e.IBV_WR_RDMA_WRITE_WITH_IMM,
                "rdma_read": e.IBV_WR_RDMA_READ, "compare_swap": e.IBV_WR_ATOMIC_CMP_AND_SWP,
                "fetch_add": e.IBV_WR_ATOMIC_FETCH_AND_ADD}
WC_OPCODES = {e.IBV_WC_SEND: "send", e.IBV_WC_RDMA_WRITE: "rdma_write", e.IBV_WC_RDMA_READ: "rdma_read",
              e.IBV_WC_COMP_SWAP: "compare_swap", e.IBV_WC_FETCH_ADD: "fetch_add", e.IBV_WC_RECV: "recv",
              e.IBV_WC_RECV_RDMA_WITH_IMM: "recv_rdma_with_imm"}
WC_STATUSES = {e.IBV_WC_SUCCESS: "success", e.IBV_WC_WR_FLUSH_ERR: "flushed",
               e.IBV_WC_LOC_LEN_ERR: "local_length_error", e.IBV_WC_LOC_PROT_ERR: "local_access_error",
               e.IBV_WC_RETRY_EXC_ERR: "retry_exceeded", e.IBV_WC_RNR_RETRY_EXC_ERR: "rnr_retry_exceeded",
               e.IBV_WC_REM_INV_REQ_ERR: "remote_invalid_request", e.IBV_WC_REM_ACCESS_ERR: "remote_access_error",
               e.IBV_WC_REM_OP_ERR: "remote_operational_error"}

INT_ATTRIBUTES = {"pd", "dest_qpn", "sq_psn", "rq_psn", "pmtu", "recv_window", "send_window", "ack_req_interval",
                  "n_low", "reorder_threshold", "retry_cnt", "rnr_retry", "min_rnr_timer", "max_rd_atomic",
                  "max_dest_rd_atomic", "pkey", "tver", "vlan", "dscp", "udp_sport", "dcqcn_f",
                  "rto_low_ns", "rto_high_ns", "reorder_time_ns", "line_rate_mbps", "dcqcn_alpha_timer_ns",
                  "dcqcn_rate_timer_ns", "dcqcn_byte_counter", "dcqcn_rai_mbps", "dcqcn_rhai_mbps",
                  "dcqcn_min_rate_mbps"}
OTHER_ATTRIBUTES = {"dcqcn_g", "dcqcn_alpha_init", "spray", "dest_ip", "dest_mac", "access"}
# MetaRoCE attributes a RoCEv2 device has no knob for: their declared values are the profile's (rxe.yaml); the agent
# accepts them and leaves the device as it is (README, "What verbs cannot do").
NO_KNOB = {"recv_window", "send_window", "ack_req_interval", "n_low", "reorder_threshold", "reorder_time_ns",
           "rto_high_ns", "line_rate_mbps", "dcqcn_f", "dcqcn_g", "dcqcn_alpha_init", "dcqcn_alpha_timer_ns",
           "dcqcn_rate_timer_ns", "dcqcn_byte_counter", "dcqcn_rai_mbps", "dcqcn_rhai_mbps", "dcqcn_min_rate_mbps"}

# Appendix C counters that rxe's hw_counters count the same events for (drivers/infiniband/sw/rxe/rxe_hw_counters.c):
# duplicate_request is incremented for a request whose PSN is before ePSN, send_rnr_err for each RNR NAK sent.
COUNTERS = {"duplicate_received": "duplicate_request", "rnr_nak_sent": "send_rnr_err"}


ACCEPT_TVER1 = False  # --tver1 accept: create a RoCEv2 QP where tver 1 is asked for, and let the wire judge


# Appendix B ranges the control plane enforces (MR-QP-009): out of range is rejected, whatever verbs would do
RANGES = {"retry_cnt": (0, 7), "rnr_retry": (0, 7), "min_rnr_timer": (0, 31), "dscp": (0, 63), "pkey": (0, 0xFFFF),
          "recv_window": (16, 32768), "send_window": (16, 32768), "reorder_threshold": (1, 63),
          "rto_low_ns": (10000, 1_000_000_000), "rto_high_ns": (10000, 1_000_000_000), "max_rd_atomic": (1, 255),
          "max_dest_rd_atomic": (1, 255), "dest_qpn": (0, 0xFFFFFF), "sq_psn": (0, 0xFFFFFF), "rq_psn": (0, 0xFFFFFF),
          "ack_req_interval": (1, 32768), "n_low": (0, 32768), "reorder_time_ns": (0, 1_000_000_000)}
# what verbs lets an RTS -> RTS modification change (the rest is fixed once the QP is in RTS)
RTS_CHANGEABLE = {"min_rnr_timer", "access"}


def check_ranges(merged):
    for name, (low, high) in RANGES.items():
        if name in merged and not low <= merged[name] <= high:
            raise rejected("%s %d is outside %d..%d (Appendix B)" % (name, merged[name], low, high))
    if "pmtu" in merged and merged["pmtu"] not in MTUS:
        raise rejected("pmtu %s is not one of 256, 512, 1024, 2048, 4096" % merged["pmtu"])
    if merged.get("reorder_time_ns", 0) > merged.get("rto_low_ns", 1 << 62):
        raise rejected("reorder_time_ns %d is above rto_low_ns %d" % (merged["reorder_time_ns"], merged["rto_low_ns"]))
    if merged.get("rto_low_ns", 0) > merged.get("rto_high_ns", 1 << 62):
        raise rejected("rto_low_ns %d is above rto_high_ns %d" % (merged["rto_low_ns"], merged["rto_high_ns"]))


def check_attributes(attributes):
    for name, value in attributes.items():
        if name not in INT_ATTRIBUTES and name not in OTHER_ATTRIBUTES:
            raise bad("unknown QP attribute '%s'" % name)
        if name in INT_ATTRIBUTES and (isinstance(value, bool) or not isinstance(value, int)):
            raise bad("QP attribute '%s' must be an integer" % name)
    check_ranges(attributes)
    if attributes.get("tver", 0) not in (0, 1):
        raise rejected("tver %s is neither 0 nor 1" % attributes["tver"])
    if attributes.get("tver", 0) == 1 and not ACCEPT_TVER1:
        raise unsupported("tver %s: rxe runs RoCEv2 (tver 0) QPs only, MetaRoCE (tver 1) is not implemented"
                          % attributes["tver"])
    if attributes.get("spray", False):
        raise unsupported("spray: rxe chooses one UDP source port per QP (no multipath spraying)")
    if attributes.get("udp_sport") is not None:
        raise unsupported("udp_sport: rxe derives the UDP source port from the QPNs, verbs cannot set it")
    if attributes.get("vlan") is not None:
        raise unsupported("vlan: the lab's rxe0 runs on an untagged netdev")
    if attributes.get("pkey", 0xFFFF) != 0xFFFF:
        raise unsupported("pkey 0x%x: rxe's P_Key table holds only the default 0xFFFF" % attributes["pkey"])


def access_flags(names, local_write):
    flags = e.IBV_ACCESS_LOCAL_WRITE if local_write else 0
    for name in names:
        if not isinstance(name, str) or name.lower() not in ACCESS:
            raise bad("unknown access right '%s'" % name)
        flags |= ACCESS[name.lower()]
    return flags


def timeout_code(rto_ns):
    """The IBTA timeout code whose 4.096 us x 2^code first reaches rto_ns (0 would mean no timeout)."""
    code = 1
    while code < 31 and 4096 * (1 << code) < rto_ns:
        code += 1
    return code


class Qp:
    def __init__(self, qp, cq, pd, attributes):
        self.qp = qp
        self.cq = cq
        self.pd = pd
        self.attributes = attributes
        # verbs leaves a failed completion's opcode undefined: the agent remembers what it posted under each wr_id
        self.receives = collections.Counter()
        self.sends = {}


class Device:
    """The device side: every ControlPlane operation on verbs. A vendor adapts this class."""

    def __init__(self, name, netdev, ipv4):
        self.name = name
        self.netdev = netdev
        self.ipv4 = ipv4
        self.ctx = Context(name=name)
        self.mac = read(f"/sys/class/net/{netdev}/address").strip()
        self.sgid_index = self.find_ipv4_gid()
        self.pds = {}
        self.qps = {}
        self.mrs = {}
        self.next_pd = 1
        self.baseline = self.raw_counters()
        self.guest_clock = GuestClock()

    def find_ipv4_gid(self):
        """The GID table entry of type RoCE v2 that holds the port's IPv4 address (::ffff:a.b.c.d)."""
        want = "0000:0000:0000:0000:0000:ffff:" + "%02x%02x:%02x%02x" % tuple(int(x) for x in self.ipv4.split("."))
        base = f"/sys/class/infiniband/{self.name}/ports/{PORT}"
        for _ in range(100):
            for index in range(len(os.listdir(base + "/gids"))):
                try:
                    gid = read(f"{base}/gids/{index}").strip()
                    kind = read(f"{base}/gid_attrs/types/{index}").strip()
                except OSError:
                    continue
                if gid == want and "v2" in kind:
                    return index
            time.sleep(0.1)
        raise RuntimeError(f"no RoCE v2 GID for {self.ipv4} on {self.name}")

    # device-timeline: rxe is software in a (TCG) guest; when the host starves the guest, rxe answers late for reasons
    # that say nothing about it. A hardware device's agent has no such excuse and must not offer this.
    capabilities = ("memory-readback", "memory-write", "counters", "completions", "requester-control",
                    "device-timeline")

    def endpoints(self):
        return {"mac": self.mac, "ipv4": self.ipv4, "ipv6": None}

    def qp_count(self):
        return len(self.qps)

    def registered_bytes(self):
        return sum(mr.length for mr in self.mrs.values())

    def identity(self):
        path = f"/sys/class/infiniband/{self.name}/fw_ver"
        fw = (read(path).strip() if os.path.exists(path) else "") or "none (a kernel driver)"
        return {"vendor": "Linux kernel", "model": "rdma_rxe soft-RoCE (%s) on %s" % (os.uname().release, self.netdev),
                "firmware": fw}

    # ------------------------------------------------------------------------------------------------- resources
    def allocate_pd(self, args):
        number = self.next_pd
        self.next_pd += 1
        self.pds[number] = PD(self.ctx)
        return {"pd": number}

    def pd(self, number):
        if number not in self.pds:
            raise rejected("no PD %d" % number)
        return self.pds[number]

    def create_qp(self, args):
        attributes = dict(arg(args, "attributes", "obj", required=False, default={}))
        check_attributes(attributes)
        pd = self.pd(attributes.get("pd", -1)) if "pd" in attributes else None
        if pd is None:
            raise rejected("createQp: the attribute pd is required")
        cq = CQ(self.ctx, 2 * QUEUE_DEPTH, None, None, 0)
        cap = QPCap(max_send_wr=QUEUE_DEPTH, max_recv_wr=QUEUE_DEPTH, max_send_sge=1, max_recv_sge=1)
        qp = QP(pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq, cap=cap, sq_sig_all=0))
        self.qps[qp.qp_num] = Qp(qp, cq, pd, attributes)
        return {"qpn": qp.qp_num}

    def qp(self, args):
        qpn = arg(args, "qpn", "int")
        if qpn not in self.qps:
            raise rejected("no QP 0x%x" % qpn)
        return self.qps[qpn]

    def modify_qp(self, args):
        q = self.qp(args)
        state = arg(args, "state", "str").lower()
        if state not in STATES:
            raise bad("unknown QP state '%s'" % state)
        extra = arg(args, "attributes", "obj", required=False, default={})
        check_attributes(extra)
        merged = dict(q.attributes)
        merged.update(extra)
        check_ranges(merged)
        attr = QPAttr()
        attr.qp_state = STATES[state]
        mask = e.IBV_QP_STATE
        current = q.qp.query(e.IBV_QP_STATE)[0].qp_state
        if state == "init" and current == e.IBV_QPS_RESET:
            attr.pkey_index = 0
            attr.port_num = PORT
            attr.qp_access_flags = access_flags(merged.get("access", []), True)
            mask |= e.IBV_QP_PKEY_INDEX | e.IBV_QP_PORT | e.IBV_QP_ACCESS_FLAGS
        elif state == "rtr" and current == e.IBV_QPS_INIT:
            for needed in ("dest_qpn", "dest_ip", "dest_mac"):
                if needed not in merged:
                    raise rejected("RTR needs the attribute %s" % needed)
            self.neighbour(merged["dest_ip"], merged["dest_mac"])
            # rxe copies the address vector's traffic class into the TOS byte of every packet of the QP (requests,
            # read responses and acknowledgements alike) and has no ECN logic of its own: the ECN bits ask for
            # ECT(0), which section 14.1 requires of data packets and allows on acknowledgements
            route = GlobalRoute(dgid=GID(mapped_gid(merged["dest_ip"])), sgid_index=self.sgid_index,
                                hop_limit=64, traffic_class=((merged.get("dscp", 0) & 0x3F) << 2) | ECT0)
            attr.ah_attr = AHAttr(gr=route, is_global=1, port_num=PORT)
            attr.path_mtu = MTUS[merged.get("pmtu", 1024)]
            attr.dest_qp_num = merged["dest_qpn"] & 0xFFFFFF
            attr.rq_psn = merged.get("rq_psn", 0) & 0xFFFFFF
            attr.max_dest_rd_atomic = merged.get("max_dest_rd_atomic", 16)
            attr.min_rnr_timer = merged.get("min_rnr_timer", 1)
            mask |= (e.IBV_QP_AV | e.IBV_QP_PATH_MTU | e.IBV_QP_DEST_QPN | e.IBV_QP_RQ_PSN
                     | e.IBV_QP_MAX_DEST_RD_ATOMIC | e.IBV_QP_MIN_RNR_TIMER)
        elif state == "rts" and current == e.IBV_QPS_RTR:
            attr.sq_psn = merged.get("sq_psn", 0) & 0xFFFFFF
            attr.timeout = timeout_code(merged.get("rto_low_ns", 100_000))
            attr.retry_cnt = merged.get("retry_cnt", 7)
            attr.rnr_retry = merged.get("rnr_retry", 7)
            attr.max_rd_atomic = merged.get("max_rd_atomic", 16)
            mask |= (e.IBV_QP_SQ_PSN | e.IBV_QP_TIMEOUT | e.IBV_QP_RETRY_CNT | e.IBV_QP_RNR_RETRY
                     | e.IBV_QP_MAX_QP_RD_ATOMIC)
        elif state == "rts" and current == e.IBV_QPS_RTS:
            fixed = sorted(k for k, v in extra.items() if k not in RTS_CHANGEABLE and q.attributes.get(k) != v)
            if fixed:
                raise unsupported("rxe cannot change %s of a QP in RTS (verbs: min_rnr_timer and access only)"
                                  % ", ".join(fixed))
            if "min_rnr_timer" in extra:
                attr.min_rnr_timer = extra["min_rnr_timer"]
                mask |= e.IBV_QP_MIN_RNR_TIMER
            if "access" in extra:
                attr.qp_access_flags = access_flags(extra["access"], True)
                mask |= e.IBV_QP_ACCESS_FLAGS
        try:
            q.qp.modify(attr, mask)
        except PyverbsRDMAError as error:
            raise rejected("the device refused %s -> %s: %s" % (STATE_NAMES.get(current, current), state,
                                                                error)) from None
        q.attributes = merged
        return {}

    def neighbour(self, ip, mac):
        """The kernel resolves a RoCE destination's MAC through its neighbour table: make the harness's MAC its answer."""
        if isinstance(mac, int):
            mac = ":".join("%02x" % ((mac >> (8 * i)) & 0xFF) for i in range(5, -1, -1))
        if ":" in ip:
            raise unsupported("dest_ip %s: the lab's rxe0 has no IPv6 address" % ip)
        done = subprocess.run(["ip", "neigh", "replace", ip, "lladdr", mac, "dev", self.netdev, "nud", "permanent"],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise AgentError("internal", "ip neigh replace %s lladdr %s: %s" % (ip, mac, done.stderr.strip()))

    def query_qp(self, args):
        state = self.qp(args).qp.query(e.IBV_QP_STATE)[0].qp_state
        return {"state": STATE_NAMES.get(state, "error")}

    def destroy_qp(self, args):
        q = self.qp(args)
        del self.qps[q.qp.qp_num]
        q.qp.close()
        q.cq.close()
        return {}

    def register_mr(self, args, limit):
        pd_number = arg(args, "pd", "int")
        length = arg(args, "length", "int")
        names = arg(args, "access", "list", required=False, default=[])
        if not 0 < length <= limit:
            raise AgentError("limit", "registerMr: %d bytes is more than this agent allows (%d)" % (length, limit))
        flags = access_flags(names, True)
        try:
            mr = MR(self.pd(pd_number), length, flags)
        except PyverbsRDMAError as error:
            raise rejected("registerMr: %s" % error) from None
        mr.write(bytes(length), length, 0)
        self.mrs[mr.lkey] = mr
        return {"pd": pd_number, "va": hex64(mr.buf), "length": length, "lkey": mr.lkey, "rkey": mr.rkey,
                "access": [n.lower() for n in names]}

    def invalidate_rkey(self, args):
        raise unsupported("invalidateRkey: a local invalidate works on memory windows and fast-registered regions, "
                          "not on the regions verbs registered here")

    def deregister_mr(self, args):
        lkey = arg(args, "lkey", "int")
        if lkey not in self.mrs:
            raise rejected("no region with L_Key 0x%x" % lkey)
        self.mrs.pop(lkey).close()
        return {}

    def region(self, va, length):
        for mr in self.mrs.values():
            if mr.buf <= va and va + length <= mr.buf + mr.length:
                return mr, va - mr.buf
        raise rejected("[%s, +%d) lies outside every registered region" % (hex64(va), length))

    # --------------------------------------------------------------------------------------------- work requests
    def post_receive(self, args):
        q = self.qp(args)
        sge = SGE(arg(args, "va", "u64"), arg(args, "length", "int"), arg(args, "lkey", "int"))
        wr = RecvWR(wr_id=arg(args, "wr_id", "u64"), num_sge=1, sg=[sge])
        try:
            q.qp.post_recv(wr)
        except PyverbsRDMAError as error:
            raise rejected("postReceive: %s" % error) from None
        q.receives[arg(args, "wr_id", "u64")] += 1
        return {}

    def post_send(self, args):
        q = self.qp(args)
        opcode = arg(args, "opcode", "str").lower()
        if opcode not in SEND_OPCODES:
            raise bad("unknown send opcode '%s'" % opcode)
        flags = 0
        for name, flag in (("signaled", e.IBV_SEND_SIGNALED), ("fence", e.IBV_SEND_FENCE),
                           ("solicited", e.IBV_SEND_SOLICITED)):
            if arg(args, name, "bool", required=False, default=False):
                flags |= flag
        sge = SGE(arg(args, "local_va", "u64", required=False, default=0), arg(args, "length", "int"),
                  arg(args, "lkey", "int", required=False, default=0))
        wr = SendWR(wr_id=arg(args, "wr_id", "u64"), opcode=SEND_OPCODES[opcode], num_sge=1, sg=[sge],
                    send_flags=flags)
        immediate = arg(args, "immediate", "int", required=False, default=0) & 0xFFFFFFFF
        if opcode in ("send_with_imm", "rdma_write_with_imm"):
            wr.imm_data = socket.htonl(immediate)  # verbs keeps immediate data in network byte order
        elif opcode == "send_with_inv":
            wr.imm_data = immediate  # the union's invalidate_rkey, in host order
        remote_va = arg(args, "remote_va", "u64", required=False, default=0)
        rkey = arg(args, "rkey", "int", required=False, default=0)
        if opcode.startswith("rdma_"):
            wr.set_wr_rdma(rkey, remote_va)
        elif opcode in ("compare_swap", "fetch_add"):
            wr.set_wr_atomic(rkey, remote_va, arg(args, "compare_add", "u64", required=False, default=0),
                             arg(args, "swap", "u64", required=False, default=0))
        try:
            q.qp.post_send(wr)
        except PyverbsRDMAError as error:
            raise rejected("postSend: %s" % error) from None
        q.sends[arg(args, "wr_id", "u64")] = opcode
        return {}

    def poll_completions(self, args):
        q = self.qp(args)
        most = arg(args, "max", "int")
        if not 0 <= most <= 4096:
            raise bad("max %d is not in 0..4096" % most)
        out = []
        while len(out) < most:
            count, wcs = q.cq.poll(min(64, most - len(out)))
            if count <= 0:
                break
            for wc in wcs[:count]:
                out.append(completion(wc, q))
        return {"completions": out}

    # ---------------------------------------------------------------------------------------- memory and counters
    def read_memory(self, args, limit):
        va, length = arg(args, "va", "u64"), arg(args, "length", "int")
        if not 0 <= length <= limit:
            raise AgentError("limit", "readMemory: %d bytes is more than this agent allows (%d)" % (length, limit))
        mr, offset = self.region(va, length)
        data = mr.read(length, offset) if length else b""
        return {"data": base64.b64encode(data).decode("ascii")}

    def write_memory(self, args, limit):
        va = arg(args, "va", "u64")
        try:
            data = base64.b64decode(arg(args, "data", "str"), validate=True)
        except ValueError:
            raise bad("data is not base64") from None
        if len(data) > limit:
            raise AgentError("limit", "writeMemory: %d bytes is more than this agent allows" % len(data))
        mr, offset = self.region(va, len(data))
        if data:
            mr.write(data, len(data), offset)
        return {}

    def raw_counters(self):
        base = f"/sys/class/infiniband/{self.name}/ports/{PORT}/hw_counters"
        values = {}
        for ours, theirs in COUNTERS.items():
            try:
                values[ours] = int(read(f"{base}/{theirs}"))
            except (OSError, ValueError):
                pass
        return values

    def counters(self, args):
        """rxe's counters cannot be cleared: the agent reports the growth since the last reset."""
        now = self.raw_counters()
        return {"counters": {k: v - self.baseline.get(k, 0) for k, v in now.items()}}

    def qp_counters(self, args):
        """rxe keeps device totals only. The counters it keeps count events of a QP's responder (a duplicate request,
        an RNR NAK sent), so while one QP exists its totals are that QP's counters; with several they cannot be split."""
        q = self.qp(args)
        if len(self.qps) != 1:
            raise unsupported("qpCounters: rxe keeps device totals only (hw_counters), and %d QPs exist"
                              % len(self.qps))
        counters = self.counters(args)["counters"]
        return {"counters": counters}

    def device_timeline(self, args):
        worst, events = self.guest_clock.since_reset()
        return {"worst_late_ns": worst, "worst": "the guest (and rxe in it) was not scheduled for" if worst else "",
                "late_events": events, "capture_drops": 0}

    def reset(self, args):
        self.guest_clock.clear()
        for q in list(self.qps.values()):
            q.qp.close()
            q.cq.close()
        for mr in self.mrs.values():
            mr.close()
        for pd in self.pds.values():
            pd.close()
        self.qps, self.mrs, self.pds, self.next_pd = {}, {}, {}, 1
        self.baseline = self.raw_counters()
        return {}


class GuestClock:
    """How long this guest went unscheduled since the last reset: a thread that sleeps 1 ms at a time and measures by
    how much each sleep overran. rxe runs in the guest's kernel, so its answers are held up at least as long."""

    SLEEP_S = 0.001
    EVENT_NS = 100_000

    def __init__(self):
        self.lock = threading.Lock()
        self.worst = 0
        self.events = 0
        threading.Thread(target=self.run, name="guest-clock", daemon=True).start()

    def run(self):
        while True:
            start = time.monotonic_ns()
            time.sleep(self.SLEEP_S)
            late = time.monotonic_ns() - start - int(self.SLEEP_S * 1e9)
            with self.lock:
                if late >= self.EVENT_NS:
                    self.events += 1
                self.worst = max(self.worst, late)

    def clear(self):
        with self.lock:
            self.worst, self.events = 0, 0

    def since_reset(self):
        with self.lock:
            return self.worst, self.events


def completion(wc, q):
    if wc.status not in WC_STATUSES:
        raise AgentError("internal", "completion of wr_id %s: verbs status %d has no MetaRoCE equivalent"
                         % (hex64(wc.wr_id), wc.status))
    receive = wc.opcode & e.IBV_WC_RECV if wc.status == e.IBV_WC_SUCCESS else q.receives[wc.wr_id] > 0
    if receive and q.receives[wc.wr_id] > 0:
        q.receives[wc.wr_id] -= 1
    if wc.status == e.IBV_WC_SUCCESS and (receive or wc.wr_id not in q.sends):
        opcode = WC_OPCODES.get(wc.opcode)
    elif wc.status == e.IBV_WC_SUCCESS:
        # a send-queue completion's verbs opcode drops the variant (IBV_WC_SEND for SEND WITH IMMEDIATE or INVALIDATE,
        # IBV_WC_RDMA_WRITE for WRITE WITH IMMEDIATE): the WQE's own, as posted
        opcode = q.sends[wc.wr_id]
    else:  # the opcode of a failed completion is undefined in verbs: the WQE's own, as posted
        opcode = "recv" if receive else q.sends.get(wc.wr_id, "send")
    if not receive:
        q.sends.pop(wc.wr_id, None)
    if opcode is None:
        raise AgentError("internal", "completion opcode %d has no MetaRoCE equivalent" % wc.opcode)
    out = {"qpn": wc.qp_num, "wr_id": hex64(wc.wr_id), "opcode": opcode, "status": WC_STATUSES[wc.status],
           "byte_length": wc.byte_len, "solicited": False, "timestamp_ns": time.time_ns()}
    if wc.status == e.IBV_WC_SUCCESS and wc.wc_flags & e.IBV_WC_WITH_IMM:
        out["immediate"] = socket.ntohl(wc.imm_data)
    if wc.status == e.IBV_WC_SUCCESS and wc.wc_flags & e.IBV_WC_WITH_INV:
        out["invalidated_rkey"] = wc.imm_data
    return out


def mapped_gid(ip):
    """The IPv4-mapped GID of an IPv4 address, written out in full (pyverbs parses only the 8-group form)."""
    try:
        octets = [int(x) for x in ip.split(".")]
        if len(octets) != 4 or not all(0 <= x <= 255 for x in octets):
            raise ValueError
    except ValueError:
        raise bad("dest_ip '%s' is not an IPv4 address" % ip) from None
    return "0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x" % tuple(octets)


def read(path):
    with open(path) as f:
        return f.read()


# ---------------------------------------------------------------------------------------------------- protocol

def main():
    parser = argparse.ArgumentParser(description="mrct control agent on libibverbs (PROTOCOL.md version 1)")
    parser.add_argument("--listen", default="127.0.0.1:4790")
    parser.add_argument("--token-file")
    parser.add_argument("--device", default="rxe0")
    parser.add_argument("--netdev", default="eth0")
    parser.add_argument("--ipv4", required=True, help="the netdev's IPv4 address, the device's endpoint")
    parser.add_argument("--max-qps", type=int, default=256)
    parser.add_argument("--max-mr-bytes", type=int, default=256 << 20)
    parser.add_argument("--max-io-bytes", type=int, default=16 << 20)
    parser.add_argument("--max-clients", type=int, default=4)
    parser.add_argument("--tver1", choices=("refuse", "accept"), default="refuse",
                        help="refuse (default): a tver 1 QP is unsupported, rxe speaks RoCEv2 only; accept: create a "
                             "RoCEv2 QP anyway, so that the cases run and the wire shows what rxe does with TVer 1")
    options = parser.parse_args()
    global ACCEPT_TVER1
    ACCEPT_TVER1 = options.tver1 == "accept"
    token = read(options.token_file).strip() if options.token_file else None
    device = Device(options.device, options.netdev, options.ipv4)
    log("device %s on %s, GID index %d for %s" % (options.device, options.netdev, device.sgid_index, options.ipv4))
    serve(device, options.listen, token, options.max_mr_bytes, options.max_io_bytes, options.max_qps,
          options.max_clients, device_errors=(PyverbsError, subprocess.CalledProcessError))


if __name__ == "__main__":
    main()
