"""The protocol half of an mrct control agent (adapters/socket/PROTOCOL.md, version 1), independent of the device.

A vendor keeps this file as it is: JSON lines over TCP, `hello` with the token compared in constant time, limits, one
request at a time per connection and one device lock across connections, the error types. The device is any object
with the methods the `Agent.ops` table names (mrct_verbs_agent.Device is one, on libibverbs), plus `identity()`,
`endpoints()`, `capabilities`, `qp_count()` and `registered_bytes()`. A method raises AgentError for an error answer;
any other exception the device's library raises (listed in `serve(..., device_errors)`) is answered `internal`.
"""
import base64
import hmac
import json
import socketserver
import sys
import threading

VERSION = 1


class AgentError(Exception):
    """An error answer: type is one of PROTOCOL.md's error types."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


def unsupported(message):
    return AgentError("unsupported", message)


def rejected(message):
    return AgentError("rejected", message)


def bad(message):
    return AgentError("bad-request", message)


# ---------------------------------------------------------------------------------------------------- arguments

def arg(args, name, kind, required=True, default=None):
    if name not in args or args[name] is None:
        if required:
            raise bad("argument '%s' is missing" % name)
        return default
    value = args[name]
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise bad("argument '%s' must be an integer" % name)
        return value
    if kind == "u64":
        return u64(name, value)
    if kind == "bool":
        if not isinstance(value, bool):
            raise bad("argument '%s' must be true or false" % name)
        return value
    if kind == "str":
        if not isinstance(value, str):
            raise bad("argument '%s' must be a string" % name)
        return value
    if kind == "obj":
        if not isinstance(value, dict):
            raise bad("argument '%s' must be an object" % name)
        return value
    if kind == "list":
        if not isinstance(value, list):
            raise bad("argument '%s' must be a list" % name)
        return value
    raise AssertionError(kind)


def u64(name, value):
    """A 64-bit value: "0x..." hex, a decimal string or a JSON number (PROTOCOL.md, value conventions)."""
    try:
        if isinstance(value, bool):
            raise ValueError
        if isinstance(value, int):
            number = value
        elif isinstance(value, str):
            number = int(value, 16) if value.lower().startswith("0x") else int(value, 10)
        else:
            raise ValueError
    except ValueError:
        raise bad("argument '%s' is not a 64-bit value" % name) from None
    if number < 0:
        number += 1 << 64
    if not 0 <= number < 1 << 64:
        raise bad("argument '%s' is out of the 64-bit range" % name)
    return number


def hex64(value):
    return "0x%016x" % (value & 0xFFFFFFFFFFFFFFFF)



class Agent:
    def __init__(self, device, token, max_mr_bytes, max_io_bytes, max_qps, device_errors=()):
        self.device = device
        self.token = token
        self.lock = threading.Lock()
        self.max_mr_bytes = max_mr_bytes
        self.max_io_bytes = max_io_bytes
        self.max_qps = max_qps
        self.max_line_bytes = (max_io_bytes + 2) // 3 * 4 + 65536
        self.device_errors = device_errors
        d = device
        self.ops = {
            "allocatePd": d.allocate_pd, "createQp": self.create_qp, "modifyQp": d.modify_qp,
            "queryQp": d.query_qp, "destroyQp": d.destroy_qp,
            "registerMr": lambda a: d.register_mr(a, self.max_mr_bytes - d.registered_bytes()),
            "invalidateRkey": d.invalidate_rkey, "deregisterMr": d.deregister_mr, "postReceive": d.post_receive,
            "postSend": d.post_send, "pollCompletions": d.poll_completions,
            "readMemory": lambda a: d.read_memory(a, self.max_io_bytes),
            "writeMemory": lambda a: d.write_memory(a, self.max_io_bytes), "counters": d.counters,
            "qpCounters": d.qp_counters, "reset": d.reset}
        if "device-timeline" in d.capabilities:
            self.ops["deviceTimeline"] = d.device_timeline

    def create_qp(self, args):
        if self.device.qp_count() >= self.max_qps:
            raise AgentError("limit", "createQp: %d QPs exist, the most this agent allows" % self.max_qps)
        return self.device.create_qp(args)

    def hello(self, args):
        version = args.get("version", VERSION)
        if version != VERSION:
            raise bad("protocol version %s: this agent speaks version %d" % (version, VERSION))
        if self.token is not None:
            given = args.get("token")
            if not isinstance(given, str) or not hmac.compare_digest(given.encode(), self.token.encode()):
                raise AgentError("auth", "missing or wrong token")
        d = self.device
        return {"version": VERSION, "identity": d.identity(), "endpoints": d.endpoints(),
                "capabilities": list(d.capabilities),
                "limits": {"max_qps": self.max_qps, "max_mr_bytes": self.max_mr_bytes,
                           "max_io_bytes": self.max_io_bytes, "max_line_bytes": self.max_line_bytes}}

    def answer(self, line, session):
        try:
            request = json.loads(line)
        except ValueError as error:
            return {"id": None, "ok": False, "error": {"type": "bad-request", "message": "not JSON: %s" % error}}
        if not isinstance(request, dict):
            return {"id": None, "ok": False, "error": {"type": "bad-request", "message": "a request is an object"}}
        rid = request.get("id")
        if isinstance(rid, bool) or not isinstance(rid, int):
            return {"id": None, "ok": False, "error": {"type": "bad-request", "message": "id must be an integer"}}
        op, args = request.get("op"), request.get("args") or {}
        try:
            if not isinstance(args, dict):
                raise bad("args must be an object")
            if op == "hello":
                result = self.hello(args)
                session["authenticated"] = True
            elif not session.get("authenticated"):
                raise AgentError("auth", "the first request must be a successful hello")
            elif op not in self.ops:
                raise bad("unknown op '%s'" % op)
            else:
                with self.lock:
                    result = self.ops[op](args)
            return {"id": rid, "ok": True, "result": result}
        except AgentError as error:
            return {"id": rid, "ok": False, "error": {"type": error.kind, "message": str(error)}}
        except (OSError,) + tuple(self.device_errors) as error:
            return {"id": rid, "ok": False, "error": {"type": "internal", "message": "%s: %s" % (op, error)}}


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        agent = self.server.agent
        with self.server.clients_lock:
            if self.server.clients >= self.server.max_clients:
                self.reply({"id": None, "ok": False, "error": {"type": "limit", "message": "too many clients"}})
                return
            self.server.clients += 1
        log("client %s:%d connected" % self.client_address)
        session = {}
        try:
            while True:
                line = self.rfile.readline(agent.max_line_bytes + 1)
                if not line:
                    break
                if len(line) > agent.max_line_bytes and not line.endswith(b"\n"):
                    while line and not line.endswith(b"\n"):
                        line = self.rfile.readline(65536)
                    self.reply({"id": None, "ok": False, "error": {"type": "limit", "message": "line too long"}})
                    continue
                text = line.decode("utf-8", "replace").rstrip("\r\n")
                if not text.strip():
                    continue
                self.reply(agent.answer(text, session))
        except (ConnectionError, OSError):
            pass
        finally:
            with self.server.clients_lock:
                self.server.clients -= 1
            log("client %s:%d left" % self.client_address)

    def reply(self, answer):
        self.wfile.write(json.dumps(answer, separators=(",", ":")).encode() + b"\n")
        self.wfile.flush()


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def log(message):
    print("mrct-agent: " + message, file=sys.stderr, flush=True)



def serve(device, listen, token, max_mr_bytes, max_io_bytes, max_qps, max_clients, device_errors=()):
    """Serves the device on listen ("ADDR:PORT") until the process ends; prints MRCT-AGENT-READY when listening."""
    host, _, port = listen.rpartition(":")
    if token is None and host not in ("127.0.0.1", "localhost", "::1"):
        sys.exit("mrct agent: listening on %s needs a token (PROTOCOL.md, Security)" % host)
    server = Server((host, int(port)), Handler)
    server.agent = Agent(device, token, max_mr_bytes, max_io_bytes, max_qps, device_errors)
    server.clients = 0
    server.max_clients = max_clients
    server.clients_lock = threading.Lock()
    log("listening on %s" % listen)
    print("MRCT-AGENT-READY", flush=True)
    server.serve_forever()
