-- MetaRoCE v1 and mrct evidence for Wireshark and tshark (Wireshark 3.6 or later).
--
-- What it shows:
--   * UDP port 4791, BTH TVer 1 (MetaRoCE v1, spec/metaroce-v1.md Table 2-1): the BTH, the PLETH of every request and
--     read response, the RETH of every RDMA WRITE packet, the AETH with its syndrome spelled out, the SACKETH of every
--     ACKNOWLEDGE, the other extension headers, the payload length and whether the ICRC is valid.
--   * The CNP (opcode 0x81, whatever its TVer).
--   * Other TVer values: the BTH, the payload length and the ICRC, flagged (no known layout, MR-WIRE-017).
--   * Every other frame on port 4791 (TVer 0: plain RoCEv2) goes to Wireshark's own InfiniBand dissector, and a short
--     "MetaRoCE ICRC" item below it says whether its ICRC is valid (Wireshark does not check RoCE ICRCs).
--   * The control records of an mrct evidence.pcapng (link type 147, USER0): the case, the call and its outcome;
--     and the memory contents of link type 148 (USER1) that belong to a control record.
--
-- Install: `mrct wireshark install` copies this file into your personal Lua plugin folder (Wireshark: Help > About >
-- Folders > Personal Lua Plugins); or run tshark with `-X lua_script:wireshark/metaroce.lua`.
-- Field names follow `mrct decode`'s JSON keys under the prefix "metaroce." (metaroce.bth.psn is bth.psn).

local metaroce = Proto("metaroce", "MetaRoCE v1")
local control = Proto("mrct_control", "mrct control record")
local memory = Proto("mrct_memory", "mrct memory contents")

------------------------------------------------------------------------------------------------------------------------
-- bit operations: bit32 (Lua 5.2), LuaBitOp's bit, or the native operators of Lua 5.3 and later
local band, bxor, rshift
if bit32 then
    band, bxor, rshift = bit32.band, bit32.bxor, bit32.rshift
elseif bit then
    band = function(a, b) return bit.band(a, b) % 4294967296 end
    bxor = function(a, b) return bit.bxor(a, b) % 4294967296 end
    rshift = function(a, n) return bit.rshift(a, n) % 4294967296 end
else
    band = load("return function(a, b) return a & b end")()
    bxor = load("return function(a, b) return a ~ b end")()
    rshift = load("return function(a, n) return (a & 0xFFFFFFFF) >> n end")()
end

------------------------------------------------------------------------------------------------------------------------
-- opcodes (wire/src/main/java/org/metaroce/mrct/wire/Opcode.java)
local OPNAMES = {
    [0x00] = "SEND_FIRST", [0x01] = "SEND_MIDDLE", [0x02] = "SEND_LAST", [0x03] = "SEND_LAST_WITH_IMMEDIATE",
    [0x04] = "SEND_ONLY", [0x05] = "SEND_ONLY_WITH_IMMEDIATE", [0x06] = "RDMA_WRITE_FIRST",
    [0x07] = "RDMA_WRITE_MIDDLE", [0x08] = "RDMA_WRITE_LAST", [0x09] = "RDMA_WRITE_LAST_WITH_IMMEDIATE",
    [0x0A] = "RDMA_WRITE_ONLY", [0x0B] = "RDMA_WRITE_ONLY_WITH_IMMEDIATE", [0x0C] = "RDMA_READ_REQUEST",
    [0x0D] = "RDMA_READ_RESPONSE_FIRST", [0x0E] = "RDMA_READ_RESPONSE_MIDDLE", [0x0F] = "RDMA_READ_RESPONSE_LAST",
    [0x10] = "RDMA_READ_RESPONSE_ONLY", [0x11] = "ACKNOWLEDGE", [0x12] = "ATOMIC_ACKNOWLEDGE",
    [0x13] = "COMPARE_SWAP", [0x14] = "FETCH_ADD", [0x16] = "SEND_LAST_WITH_INVALIDATE",
    [0x17] = "SEND_ONLY_WITH_INVALIDATE", [0x1C] = "FLUSH", [0x1D] = "ATOMIC_WRITE",
    [0x20] = "UC_SEND_FIRST", [0x21] = "UC_SEND_MIDDLE", [0x22] = "UC_SEND_LAST",
    [0x23] = "UC_SEND_LAST_WITH_IMMEDIATE", [0x24] = "UC_SEND_ONLY", [0x25] = "UC_SEND_ONLY_WITH_IMMEDIATE",
    [0x26] = "UC_RDMA_WRITE_FIRST", [0x27] = "UC_RDMA_WRITE_MIDDLE", [0x28] = "UC_RDMA_WRITE_LAST",
    [0x29] = "UC_RDMA_WRITE_LAST_WITH_IMMEDIATE", [0x2A] = "UC_RDMA_WRITE_ONLY",
    [0x2B] = "UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", [0x64] = "UD_SEND_ONLY", [0x65] = "UD_SEND_ONLY_WITH_IMMEDIATE",
    [0x81] = "CNP",
}

local function opname(code)
    return OPNAMES[code] or string.format("UNKNOWN(0x%02X)", code)
end

-- Extension headers after the BTH, in wire order, for an opcode and TVer (HeaderLayout.java; spec Table 2-1 for
-- TVer 1, the RoCEv2 layouts for TVer 0). nil: no known layout.
local function rocev2_layout(op)
    local low, service = op % 32, op - op % 32
    if op == 0x81 then return { "CNP" } end
    if service == 0x60 then
        if op == 0x64 then return { "DETH" } end
        if op == 0x65 then return { "DETH", "IMMDT" } end
        return nil
    end
    if service ~= 0x00 and service ~= 0x20 then return nil end
    if service == 0x20 and low > 0x0B then return nil end
    local h = {}
    if low <= 0x05 or low == 0x16 or low == 0x17 then
        -- SEND
    elseif low <= 0x0B then
        if low == 0x06 or low == 0x0A or low == 0x0B then h[#h + 1] = "RETH" end
    elseif low == 0x0C then
        h[#h + 1] = "RETH"
    elseif low <= 0x10 then
        if low ~= 0x0E then h[#h + 1] = "AETH" end
    elseif low == 0x11 then
        h[#h + 1] = "AETH"
    elseif low == 0x12 then
        h[#h + 1] = "AETH"; h[#h + 1] = "ATOMICACKETH"
    elseif low == 0x13 or low == 0x14 then
        h[#h + 1] = "ATOMICETH"
    elseif low == 0x1C then
        h[#h + 1] = "FETH"; h[#h + 1] = "RETH"
    elseif low == 0x1D then
        h[#h + 1] = "RETH"
    else
        return nil
    end
    if low == 0x03 or low == 0x05 or low == 0x09 or low == 0x0B then h[#h + 1] = "IMMDT" end
    if low == 0x16 or low == 0x17 then h[#h + 1] = "IETH" end
    return h
end

local function metaroce_layout(op)
    if op > 0x17 or OPNAMES[op] == nil then
        -- UC, UD, FLUSH, ATOMIC WRITE and the CNP keep their RoCEv2 layout whatever the TVer
        return rocev2_layout(op)
    end
    local h = {}
    if op <= 0x05 or op == 0x16 or op == 0x17 then
        h[1] = "PLETH"
    elseif op <= 0x0C then
        h[1] = "PLETH"; h[2] = "RETH"
    elseif op <= 0x10 then
        h[1] = "PLETH"
        if op ~= 0x0E then h[2] = "AETH" end
    elseif op == 0x11 then
        h[1] = "AETH"; h[2] = "SACKETH"
    elseif op == 0x12 then
        h[1] = "AETH"; h[2] = "ATOMICACKETH"
    else
        h[1] = "PLETH"; h[2] = "ATOMICETH"
    end
    if op == 0x03 or op == 0x05 or op == 0x09 or op == 0x0B then h[#h + 1] = "IMMDT" end
    if op == 0x16 or op == 0x17 then h[#h + 1] = "IETH" end
    return h
end

local LENGTHS = { PLETH = 12, RETH = 16, AETH = 4, SACKETH = 12, ATOMICETH = 28, ATOMICACKETH = 8, IMMDT = 4,
    IETH = 4, DETH = 8, FETH = 4, CNP = 16 }

local function carries_payload(op)
    if op == 0x81 or op >= 0x64 then return op == 0x64 or op == 0x65 end
    local low = op % 32
    return low <= 0x10 and low ~= 0x0C or low == 0x16 or low == 0x17 or low == 0x1D
end

local function syndrome_name(s)
    local kind, low = band(rshift(s, 5), 3), band(s, 0x1F)
    if band(s, 0x80) ~= 0 or kind == 2 then return string.format("UNKNOWN(0x%02X)", s) end
    if kind == 0 then return low == 0x1F and "ACK" or string.format("ACK(credit=%d)", low) end
    if kind == 1 then return string.format("RNR_NAK(timer=%d)", low) end
    local naks = { [0] = "NAK_PSN_SEQUENCE_ERROR", "NAK_INVALID_REQUEST", "NAK_REMOTE_ACCESS_ERROR",
        "NAK_REMOTE_OPERATIONAL_ERROR", "NAK_INVALID_RD_REQUEST" }
    return naks[low] or string.format("UNKNOWN(0x%02X)", s)
end

------------------------------------------------------------------------------------------------------------------------
-- fields: the names of mrct decode's JSON keys
local F = {
    opcode = ProtoField.uint8("metaroce.bth.opcode", "OpCode", base.HEX),
    opname = ProtoField.string("metaroce.bth.opname", "OpCode name"),
    se = ProtoField.bool("metaroce.bth.se", "Solicited event", 8, nil, 0x80),
    m = ProtoField.bool("metaroce.bth.m", "MigReq", 8, nil, 0x40),
    padcnt = ProtoField.uint8("metaroce.bth.padcnt", "Pad count", base.DEC, nil, 0x30),
    tver = ProtoField.uint8("metaroce.bth.tver", "Transport version", base.DEC,
        { [0] = "RoCEv2", [1] = "MetaRoCE v1" }, 0x0F),
    pkey = ProtoField.uint16("metaroce.bth.pkey", "P_Key", base.HEX),
    fecn = ProtoField.bool("metaroce.bth.fecn", "FECN", 8, nil, 0x80),
    becn = ProtoField.bool("metaroce.bth.becn", "BECN", 8, nil, 0x40),
    resv6a = ProtoField.uint8("metaroce.bth.resv6a", "Reserved", base.HEX, nil, 0x3F),
    dqpn = ProtoField.uint24("metaroce.bth.dqpn", "Destination QP", base.HEX),
    ackreq = ProtoField.bool("metaroce.bth.ackreq", "AckReq", 8, nil, 0x80),
    resv7 = ProtoField.uint8("metaroce.bth.resv7", "Reserved", base.HEX, nil, 0x7F),
    psn = ProtoField.uint24("metaroce.bth.psn", "PSN", base.DEC),
    pleth_msn = ProtoField.uint24("metaroce.pleth.msn", "MSN", base.DEC),
    pleth_first = ProtoField.bool("metaroce.pleth.first", "First packet of the message (F)", 8, nil, 0x80),
    pleth_last = ProtoField.bool("metaroce.pleth.last", "Last packet of the message (L)", 8, nil, 0x40),
    pleth_flags_resv = ProtoField.uint8("metaroce.pleth.flags_resv", "Reserved flags", base.HEX, nil, 0x3F),
    pleth_offset = ProtoField.uint32("metaroce.pleth.offset", "Offset in the message", base.DEC),
    pleth_rsn = ProtoField.uint24("metaroce.pleth.rsn", "RSN", base.DEC),
    pleth_resv = ProtoField.uint8("metaroce.pleth.resv", "Reserved", base.HEX),
    reth_va = ProtoField.uint64("metaroce.reth.va", "Virtual address", base.HEX),
    reth_rkey = ProtoField.uint32("metaroce.reth.rkey", "R_Key", base.HEX),
    reth_dmalen = ProtoField.uint32("metaroce.reth.dmalen", "DMA length", base.DEC),
    aeth_syndrome = ProtoField.uint8("metaroce.aeth.syndrome", "Syndrome", base.HEX),
    aeth_name = ProtoField.string("metaroce.aeth.name", "Syndrome meaning"),
    aeth_msn = ProtoField.uint24("metaroce.aeth.msn", "MSN", base.DEC),
    sacketh_resv = ProtoField.uint8("metaroce.sacketh.resv", "Reserved", base.HEX),
    sacketh_base = ProtoField.uint24("metaroce.sacketh.base", "Base PSN", base.DEC),
    sacketh_bitmap = ProtoField.uint64("metaroce.sacketh.bitmap", "Bitmap", base.HEX),
    sacketh_received = ProtoField.string("metaroce.sacketh.received", "PSNs received after the base"),
    atomic_va = ProtoField.uint64("metaroce.atomiceth.va", "Virtual address", base.HEX),
    atomic_rkey = ProtoField.uint32("metaroce.atomiceth.rkey", "R_Key", base.HEX),
    atomic_swap = ProtoField.uint64("metaroce.atomiceth.swap", "Swap or add data", base.HEX),
    atomic_compare = ProtoField.uint64("metaroce.atomiceth.compare", "Compare data", base.HEX),
    atomicack_orig = ProtoField.uint64("metaroce.atomicacketh.orig", "Original remote data", base.HEX),
    immdt = ProtoField.uint32("metaroce.immdt", "Immediate data", base.HEX),
    ieth_rkey = ProtoField.uint32("metaroce.ieth.rkey", "R_Key to invalidate", base.HEX),
    deth_qkey = ProtoField.uint32("metaroce.deth.qkey", "Q_Key", base.HEX),
    deth_srcqp = ProtoField.uint24("metaroce.deth.srcqp", "Source QP", base.HEX),
    feth = ProtoField.uint32("metaroce.feth", "FETH", base.HEX),
    cnp = ProtoField.bytes("metaroce.cnp.reserved", "CNP reserved bytes"),
    payload_len = ProtoField.uint32("metaroce.payload_len", "Payload length", base.DEC),
    payload = ProtoField.bytes("metaroce.payload", "Payload"),
    pad = ProtoField.bytes("metaroce.pad", "Pad"),
    icrc_value = ProtoField.bytes("metaroce.icrc.value", "ICRC"),
    icrc_valid = ProtoField.bool("metaroce.icrc.valid", "ICRC valid"),
    icrc_computed = ProtoField.string("metaroce.icrc.computed", "ICRC computed"),
}
local fields = {}
for _, f in pairs(F) do fields[#fields + 1] = f end
metaroce.fields = fields

local E = {
    bad_icrc = ProtoExpert.new("metaroce.icrc.bad", "ICRC does not match the frame", expert.group.CHECKSUM,
        expert.severity.ERROR),
    malformed = ProtoExpert.new("metaroce.malformed", "Malformed MetaRoCE frame", expert.group.MALFORMED,
        expert.severity.ERROR),
    unknown = ProtoExpert.new("metaroce.unknown_layout", "No known header layout for this opcode and TVer",
        expert.group.UNDECODED, expert.severity.WARN),
    nak = ProtoExpert.new("metaroce.nak", "NAK or RNR NAK", expert.group.SEQUENCE, expert.severity.NOTE),
}
metaroce.experts = { E.bad_icrc, E.malformed, E.unknown, E.nak }

------------------------------------------------------------------------------------------------------------------------
-- ICRC: CRC-32 (IEEE, reflected) over 8 bytes of 0xFF, the IP header and the UDP header with their variant fields
-- forced to ones, the BTH with byte 4 forced to ones, then everything up to the ICRC (wire/.../Icrc.java)
local CRC_TABLE = {}
for i = 0, 255 do
    local c = i
    for _ = 1, 8 do
        if band(c, 1) ~= 0 then c = bxor(rshift(c, 1), 0xEDB88320) else c = rshift(c, 1) end
    end
    CRC_TABLE[i] = c
end

local function crc_update(crc, s, from, to)
    local byte = string.byte
    for i = from, to do
        crc = bxor(rshift(crc, 8), CRC_TABLE[band(bxor(crc, byte(s, i)), 0xFF)])
    end
    return crc
end

local f_ip = Field.new("ip")
local f_ipv6 = Field.new("ipv6")
local f_udp = Field.new("udp")

local function last_of(field)
    local all = { field() }
    return all[#all]
end

local unpack_all = table.unpack or unpack

local function masked(s, positions)
    local bytes = { string.byte(s, 1, #s) }
    for _, p in ipairs(positions) do bytes[p] = 0xFF end
    return string.char(unpack_all(bytes))
end

-- The ICRC computed over this frame (a 4-byte string in wire order), or nil when the IP or UDP header is not found.
local function compute_icrc(tvb, icrc_offset)
    local udp = last_of(f_udp)
    if udp == nil then return nil end
    local ip, v6 = last_of(f_ip), false
    local ip6 = last_of(f_ipv6)
    if ip6 ~= nil and (ip == nil or ip6.offset > ip.offset) then ip, v6 = ip6, true end
    if ip == nil then return nil end
    local iphdr
    if v6 then
        -- traffic class (low nibble of byte 0, high nibble of byte 1), flow label, hop limit
        iphdr = masked(ip.range:raw(0, 40), { 2, 3, 4, 8 })
        iphdr = string.char(bxor(band(string.byte(iphdr, 1), 0xF0), 0x0F)) .. string.sub(iphdr, 2)
    else
        local raw = ip.range:raw()
        local ihl = band(string.byte(raw, 1), 0x0F) * 4
        iphdr = masked(string.sub(raw, 1, ihl), { 2, 9, 11, 12 })
    end
    local udphdr = masked(udp.range:raw(0, 8), { 7, 8 })
    local bth = masked(tvb:raw(0, 12), { 5 })
    local rest = tvb:raw(12, icrc_offset - 12)
    local crc = 0xFFFFFFFF
    crc = crc_update(crc, string.rep("\255", 8), 1, 8)
    crc = crc_update(crc, iphdr, 1, #iphdr)
    crc = crc_update(crc, udphdr, 1, 8)
    crc = crc_update(crc, bth, 1, 12)
    crc = crc_update(crc, rest, 1, #rest)
    crc = bxor(crc, 0xFFFFFFFF)
    return string.char(band(crc, 0xFF), band(rshift(crc, 8), 0xFF), band(rshift(crc, 16), 0xFF),
        band(rshift(crc, 24), 0xFF))
end

-- Adds the ICRC items under tree; returns whether the ICRC is valid (nil when it cannot be computed).
local function add_icrc(tvb, tree, icrc_offset)
    local carried = tvb(icrc_offset, 4)
    local item = tree:add(F.icrc_value, carried)
    local computed = compute_icrc(tvb, icrc_offset)
    if computed == nil then
        item:append_text(" (not checked: no IP or UDP header found)")
        return nil
    end
    local valid = computed == carried:raw()
    tree:add(F.icrc_valid, carried, valid):set_generated()
    if not valid then
        local hex = string.gsub(computed, ".", function(c) return string.format("%02x", string.byte(c)) end)
        tree:add(F.icrc_computed, carried, hex):set_generated()
        tree:add_proto_expert_info(E.bad_icrc)
    end
    return valid
end

------------------------------------------------------------------------------------------------------------------------
-- the headers
local function bitmap_text(range)
    local hi, lo = range(0, 4):uint(), range(4, 4):uint()
    local got = {}
    for i = 0, 63 do
        local word, bitpos = i < 32 and hi or lo, 31 - (i % 32)
        if band(rshift(word, bitpos), 1) == 1 then got[#got + 1] = "+" .. i end
    end
    return #got == 0 and "none" or table.concat(got, " ")
end

local ADDERS = {
    PLETH = function(t, r)
        local s = t:add(r, "PLETH: Placement Extended Transport Header")
        s:add(F.pleth_msn, r(0, 3)); s:add(F.pleth_first, r(3, 1)); s:add(F.pleth_last, r(3, 1))
        s:add(F.pleth_flags_resv, r(3, 1)); s:add(F.pleth_offset, r(4, 4)); s:add(F.pleth_rsn, r(8, 3))
        s:add(F.pleth_resv, r(11, 1))
        local flags = r(3, 1):uint()
        s:append_text(string.format(", MSN %d%s%s, offset %d, RSN %d", r(0, 3):uint(),
            band(flags, 0x80) ~= 0 and " F" or "", band(flags, 0x40) ~= 0 and " L" or "", r(4, 4):uint(),
            r(8, 3):uint()))
    end,
    RETH = function(t, r)
        local s = t:add(r, "RETH: RDMA Extended Transport Header")
        s:add(F.reth_va, r(0, 8)); s:add(F.reth_rkey, r(8, 4)); s:add(F.reth_dmalen, r(12, 4))
        s:append_text(string.format(", R_Key 0x%08x, DMA length %d", r(8, 4):uint(), r(12, 4):uint()))
    end,
    AETH = function(t, r, pinfo)
        local s = t:add(r, "AETH: ACK Extended Transport Header")
        local syn = r(0, 1):uint()
        local name = syndrome_name(syn)
        s:add(F.aeth_syndrome, r(0, 1)):append_text(" (" .. name .. ")")
        s:add(F.aeth_name, r(0, 1), name):set_generated()
        s:add(F.aeth_msn, r(1, 3))
        s:append_text(string.format(", %s, MSN %d", name, r(1, 3):uint()))
        if band(rshift(syn, 5), 3) ~= 0 then s:add_proto_expert_info(E.nak, name) end
        return name
    end,
    SACKETH = function(t, r)
        local s = t:add(r, "SACKETH: Selective ACK Extended Transport Header")
        s:add(F.sacketh_resv, r(0, 1)); s:add(F.sacketh_base, r(1, 3)); s:add(F.sacketh_bitmap, r(4, 8))
        s:add(F.sacketh_received, r(4, 8), bitmap_text(r(4, 8))):set_generated()
        s:append_text(string.format(", base %d", r(1, 3):uint()))
    end,
    ATOMICETH = function(t, r)
        local s = t:add(r, "AtomicETH: Atomic Extended Transport Header")
        s:add(F.atomic_va, r(0, 8)); s:add(F.atomic_rkey, r(8, 4)); s:add(F.atomic_swap, r(12, 8))
        s:add(F.atomic_compare, r(20, 8))
    end,
    ATOMICACKETH = function(t, r)
        t:add(r, "AtomicAckETH: Atomic ACK Extended Transport Header"):add(F.atomicack_orig, r(0, 8))
    end,
    IMMDT = function(t, r) t:add(F.immdt, r(0, 4)) end,
    IETH = function(t, r) t:add(F.ieth_rkey, r(0, 4)) end,
    DETH = function(t, r)
        local s = t:add(r, "DETH: Datagram Extended Transport Header")
        s:add(F.deth_qkey, r(0, 4)); s:add(F.deth_srcqp, r(5, 3))
    end,
    FETH = function(t, r) t:add(F.feth, r(0, 4)) end,
    CNP = function(t, r) t:add(F.cnp, r(0, 16)) end,
}

-- Dissects a BTH and what follows (tvb = the UDP payload) into tree; returns the opcode name.
local function dissect_metaroce(tvb, pinfo, tree)
    local len = tvb:len()
    local root = tree:add(metaroce, tvb())
    if len < 16 then
        root:add_proto_expert_info(E.malformed, string.format("truncated: %d bytes, less than a BTH and an ICRC", len))
        return
    end
    local op = tvb(0, 1):uint()
    local tver = band(tvb(1, 1):uint(), 0x0F)
    local pad = band(rshift(tvb(1, 1):uint(), 4), 3)
    local bth = root:add(tvb(0, 12), "BTH: Base Transport Header")
    bth:add(F.opcode, tvb(0, 1)):append_text(" (" .. opname(op) .. ")")
    bth:add(F.opname, tvb(0, 1), opname(op)):set_generated()
    bth:add(F.se, tvb(1, 1)); bth:add(F.m, tvb(1, 1)); bth:add(F.padcnt, tvb(1, 1)); bth:add(F.tver, tvb(1, 1))
    bth:add(F.pkey, tvb(2, 2)); bth:add(F.fecn, tvb(4, 1)); bth:add(F.becn, tvb(4, 1))
    bth:add(F.resv6a, tvb(4, 1)); bth:add(F.dqpn, tvb(5, 3)); bth:add(F.ackreq, tvb(8, 1))
    bth:add(F.resv7, tvb(8, 1)); bth:add(F.psn, tvb(9, 3))
    bth:append_text(string.format(", %s, QP 0x%06x, PSN %d", opname(op), tvb(5, 3):uint(), tvb(9, 3):uint()))

    pinfo.cols.protocol = op == 0x81 and "CNP" or "MetaRoCE"
    local info = string.format("%s QP=0x%06x PSN=%d", opname(op), tvb(5, 3):uint(), tvb(9, 3):uint())
    local layout = tver == 1 and metaroce_layout(op) or tver == 0 and rocev2_layout(op) or nil
    if layout == nil then
        -- as mrct decode: no extension headers, everything between the BTH and the ICRC is payload, no pad
        root:add_proto_expert_info(E.unknown, string.format("opcode 0x%02X with TVer %d has no known layout%s", op,
            tver, tver > 1 and " (an unknown TVer: MR-WIRE-017)" or ""))
        root:add(F.payload_len, tvb(12, len - 16), len - 16):set_generated()
        local valid = add_icrc(tvb, root, len - 4)
        pinfo.cols.info = info .. string.format(" TVer=%d (unknown layout)", tver)
            .. (valid == false and " [bad ICRC]" or "")
        return
    end
    local at = 12
    for _, kind in ipairs(layout) do
        local n = LENGTHS[kind]
        if at + n > len - 4 then
            root:add_proto_expert_info(E.malformed, string.format("truncated %s at byte %d of the BTH", kind, at))
            pinfo.cols.info = info
            return
        end
        local name = ADDERS[kind](root, tvb(at, n), pinfo)
        if kind == "AETH" then info = info .. " " .. name .. string.format(" MSN=%d", tvb(at + 1, 3):uint()) end
        if kind == "PLETH" then info = info .. string.format(" MSN=%d off=%d", tvb(at, 3):uint(), tvb(at + 4, 4):uint()) end
        if kind == "SACKETH" then info = info .. string.format(" base=%d", tvb(at + 1, 3):uint()) end
        at = at + n
    end
    local rest = len - 4 - at
    if rest > 0 and not carries_payload(op) then
        root:add_proto_expert_info(E.malformed, string.format("%d bytes after the headers of an opcode that carries "
            .. "no payload", rest))
    end
    if pad > rest then
        root:add_proto_expert_info(E.malformed, string.format("pad count %d exceeds the %d bytes after the headers",
            pad, rest))
    else
        root:add(F.payload_len, tvb(at, rest), rest - pad):set_generated()
        if rest - pad > 0 then root:add(F.payload, tvb(at, rest - pad)) end
        if pad > 0 then root:add(F.pad, tvb(at + rest - pad, pad)) end
        info = info .. string.format(" len=%d", rest - pad)
    end
    local valid = add_icrc(tvb, root, len - 4)
    if valid == false then info = info .. " [bad ICRC]" end
    pinfo.cols.info = info
end

------------------------------------------------------------------------------------------------------------------------
-- registration: UDP 4791, handing TVer 0 (but the CNP) to the dissector registered there before us (InfiniBand's)
local udp_table = DissectorTable.get("udp.port")
local infiniband = udp_table:get_dissector(4791) or Dissector.get("infiniband")

local icrc_only = Proto("metaroce_icrc", "MetaRoCE ICRC check")
local F_ICRC_TVER0 = {
    value = ProtoField.bytes("metaroce_icrc.value", "ICRC"),
    valid = ProtoField.bool("metaroce_icrc.valid", "ICRC valid"),
}
icrc_only.fields = { F_ICRC_TVER0.value, F_ICRC_TVER0.valid }

function metaroce.dissector(tvb, pinfo, tree)
    if tvb:len() >= 2 then
        local op, tver = tvb(0, 1):uint(), band(tvb(1, 1):uint(), 0x0F)
        if tver == 0 and op ~= 0x81 and infiniband ~= nil then
            local ok, used = pcall(infiniband.call, infiniband, tvb, pinfo, tree)
            local t = tree:add(icrc_only, tvb(math.max(0, tvb:len() - 4)))
            if not ok then
                -- the InfiniBand dissector (or one it called) gave up on the frame
                t:add_proto_expert_info(E.malformed, tostring(used))
                used = tvb:len()
            end
            if tvb:len() >= 16 then
                local computed = compute_icrc(tvb, tvb:len() - 4)
                if computed ~= nil then
                    t:add(F_ICRC_TVER0.value, tvb(tvb:len() - 4, 4))
                    local valid = computed == tvb:raw(tvb:len() - 4, 4)
                    t:add(F_ICRC_TVER0.valid, tvb(tvb:len() - 4, 4), valid):set_generated()
                    t:append_text(valid and ": valid" or ": BAD")
                    if not valid then t:add_proto_expert_info(E.bad_icrc) end
                end
            end
            return used
        end
    end
    dissect_metaroce(tvb, pinfo, tree)
    return tvb:len()
end

udp_table:add(4791, metaroce)

------------------------------------------------------------------------------------------------------------------------
-- mrct evidence: control records (link type 147) and memory contents (link type 148)
local C = {
    case = ProtoField.string("mrct.case", "Case"),
    step = ProtoField.string("mrct.step", "Step"),
    index = ProtoField.uint32("mrct.control.index", "Call index", base.DEC),
    op = ProtoField.string("mrct.control.op", "Call"),
    error = ProtoField.string("mrct.control.error", "Error"),
    outcome = ProtoField.string("mrct.control.outcome", "Outcome"),
    part = ProtoField.string("mrct.control.part", "Part"),
    json = ProtoField.string("mrct.control.json", "Record (JSON)"),
    data = ProtoField.bytes("mrct.memory.data", "Memory bytes"),
    comment = ProtoField.string("mrct.comment", "Evidence comment"),
}
control.fields = { C.case, C.step, C.index, C.op, C.error, C.outcome, C.part, C.json, C.comment }
memory.fields = { C.data }

local f_comment = Field.new("frame.comment")

-- The mrct comment of this packet (pcapng opt_comment) as a table of its key=value fields, percent-decoded.
local function evidence_fields()
    local all = { f_comment() }
    for _, fi in ipairs(all) do
        local text = tostring(fi.value)
        if string.sub(text, 1, 5) == "mrct " then
            local out = {}
            for word in string.gmatch(text, "%S+") do
                local k, v = string.match(word, "^([^=]+)=(.*)$")
                if k ~= nil then
                    out[k] = string.gsub(v, "%%(%x%x)", function(h) return string.char(tonumber(h, 16)) end)
                end
            end
            return out, text
        end
    end
    return {}, nil
end

local function add_comment_fields(tree, tvb, meta, text)
    if text == nil then return end
    tree:add(C.comment, tvb(0, 0), text):set_generated()
    if meta.case ~= nil then tree:add(C.case, tvb(0, 0), meta.case):set_generated() end
    if meta.step ~= nil then tree:add(C.step, tvb(0, 0), meta.step):set_generated() end
end

-- a string member of flat JSON text, or nil
local function json_string(text, key)
    return string.match(text, '"' .. key .. '":"(.-)"[,}]')
end

local json_dissector = Dissector.get("json")

function control.dissector(tvb, pinfo, tree)
    local meta, text = evidence_fields()
    local t = tree:add(control, tvb())
    pinfo.cols.protocol = "mrct"
    local raw = tvb:raw()
    add_comment_fields(t, tvb, meta, text)
    if meta.part ~= nil then
        t:add(C.part, tvb(0, 0), meta.part):set_generated()
    end
    local index = tonumber(string.match(raw, '^{"index":(%d+)'))
    local op = string.match(raw, '"op":"(%a+)"') or meta.note
    if index ~= nil then t:add(C.index, tvb(0, 0), index):set_generated() end
    if op ~= nil then t:add(C.op, tvb(0, 0), op):set_generated() end
    local err = json_string(raw, "error")
    local outcome = err ~= nil and err or (string.find(raw, '"error":null}$') and "ok" or nil)
    if outcome ~= nil then t:add(C.outcome, tvb(0, 0), outcome):set_generated() end
    if err ~= nil then t:add(C.error, tvb(0, 0), err):set_generated() end
    t:add(C.json, tvb(), raw)
    if json_dissector ~= nil and meta.part == nil then
        -- the whole record as a tree (Wireshark's JSON dissector); the columns stay ours
        pcall(json_dissector.call, json_dissector, tvb, pinfo, t)
    end
    pinfo.cols.protocol = "mrct"
    pinfo.cols.info = string.format("%s control #%s %s%s%s", meta.case or "?", index or meta.index or "?",
        op or "?", outcome and (": " .. outcome) or "", meta.part and (" (part " .. meta.part .. ")") or "")
    return tvb:len()
end

function memory.dissector(tvb, pinfo, tree)
    local meta, text = evidence_fields()
    local t = tree:add(memory, tvb())
    pinfo.cols.protocol = "mrct"
    add_comment_fields(t, tvb, meta, text)
    t:add(C.data, tvb())
    pinfo.cols.info = string.format("%s control #%s %s: memory bytes %s (%d bytes)", meta.case or "?",
        meta.index or "?", meta.note or "?", meta.part or "", tvb:len())
    return tvb:len()
end

local encaps = wtap_encaps or wtap
local wtap_table = DissectorTable.get("wtap_encap")
wtap_table:add(encaps.USER0, control)
wtap_table:add(encaps.USER1, memory)
