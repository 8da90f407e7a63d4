package org.metaroce.mrct.harness.cases;

import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.spec.Role;
import org.metaroce.mrct.spi.Capability;

/**
 * A conformance case as loaded from its YAML file.
 *
 * @param id unique ID ({@code ORD-004})
 * @param title one line
 * @param description free text (may be empty)
 * @param area the folder under the case directory, upper case
 * @param file the file, relative to its case directory
 * @param rules rule IDs covered
 * @param role {@link Role#RESPONDER} or {@link Role#REQUESTER}
 * @param pics PICS items the device must claim
 * @param capabilities adapter capabilities needed, in the order written
 * @param params parameter values that override the DUT profile's for this case
 * @param matrix parameter rows: the case runs once per row (empty: once)
 * @param connections QPs to create
 * @param regions memory regions to register
 * @param setupSteps steps run before the case proper (receive WQEs)
 * @param steps the case
 * @param ignore frames matching any of these are set aside (neither expected nor unexpected)
 * @param exhaustive whether frames nobody expected fail the case (default true)
 * @param requires conditions on the profile's parameters (and the row's values) that the case's expectations assume;
 *     where one is 0 the case (or row) is NOT_APPLICABLE with the condition as the reason (empty: none)
 */
public record CaseDef(String id, String title, String description, String area, String file, List<String> rules,
                      Role role, List<String> pics, List<Capability> capabilities, Map<String, Expr> params,
                      List<Map<String, Expr>> matrix, List<ConnectionDef> connections, List<RegionDef> regions,
                      List<Step> setupSteps, List<Step> steps, List<FrameTemplate> ignore, boolean exhaustive,
                      List<Expr> requires) {
    public CaseDef {
        rules = List.copyOf(rules);
        pics = List.copyOf(pics);
        capabilities = List.copyOf(capabilities);
        params = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(params));
        matrix = List.copyOf(matrix);
        connections = List.copyOf(connections);
        regions = List.copyOf(regions);
        setupSteps = List.copyOf(setupSteps);
        steps = List.copyOf(steps);
        ignore = List.copyOf(ignore);
        requires = List.copyOf(requires);
    }
}
