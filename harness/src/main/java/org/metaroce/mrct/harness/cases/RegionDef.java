package org.metaroce.mrct.harness.cases;

import java.util.Set;
import org.metaroce.mrct.spi.Access;

/**
 * A memory region registered on the device.
 *
 * @param name the name steps use
 * @param connection the connection whose protection domain it joins (null: the first connection's)
 * @param ownPd whether it has a protection domain of its own ({@code pd: own}) instead of a connection's, for
 *     PD-mismatch cases
 * @param length bytes
 * @param access access rights
 * @param fill initial content (written through the control plane; null: zeroes as registered)
 * @param onPeer whether the region is registered on the harness's peer (requester cases) instead of the device
 * @param line line in the case file
 */
public record RegionDef(String name, String connection, boolean ownPd, Expr length, Set<Access> access, Pattern fill,
                        boolean onPeer, int line) {
    public RegionDef {
        access = java.util.Collections.unmodifiableSet(access.isEmpty() ? java.util.EnumSet.noneOf(Access.class)
            : java.util.EnumSet.copyOf(access));
    }
}
