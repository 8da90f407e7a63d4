package org.metaroce.mrct.harness.cases;

import java.util.List;

/**
 * A memory region registered on the device.
 *
 * @param name the name steps use
 * @param connection the connection whose protection domain it joins (null: the first connection's)
 * @param pd a protection domain of its own ("own") instead of a connection's, for PD-mismatch cases
 * @param length bytes
 * @param access access rights (local_write, remote_write, remote_read, remote_atomic)
 * @param fill initial content (written through the control plane; null: zeroes as registered)
 * @param onPeer whether the region is registered on the harness's peer (requester cases) instead of the device
 * @param line line in the case file
 */
public record RegionDef(String name, String connection, String pd, Expr length, List<String> access, Pattern fill,
                        boolean onPeer, int line) {
}
