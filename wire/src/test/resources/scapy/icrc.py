"""Prints scapy's ICRC (wire byte order, hex) for each frame given as one hex line in the file named by argv[1].

Used by IcrcScapyCrossCheckTest; run with Debian's /usr/bin/python3, for which python3-scapy is installed.
"""
import sys

from scapy.layers.l2 import Ether
from scapy.contrib.roce import BTH

with open(sys.argv[1]) as frames:
    for line in frames:
        line = line.strip()
        if not line:
            continue
        packet = Ether(bytes.fromhex(line))
        if BTH not in packet:
            print("no-bth")
            continue
        print(packet[BTH].compute_icrc(None).hex())
