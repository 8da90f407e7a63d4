package org.metaroce.mrct.harness.cases;

import java.util.LinkedHashSet;
import java.util.Set;
import org.metaroce.mrct.harness.spec.Parameter;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.spi.QpAttribute;

/**
 * What case files are checked against while they load: the specification (rule IDs, PICS items, parameter names)
 * and the names built into the harness.
 *
 * @param spec the specification
 */
public record LoadContext(Specification spec) {
    /** Parameter names a case may set or use: the specification's parameters and the QP attributes. */
    public Set<String> parameterNames() {
        final Set<String> names = new LinkedHashSet<>();
        for (final Parameter parameter : spec.parameters()) {
            names.add(parameter.name());
        }
        for (final QpAttribute attribute : QpAttribute.values()) {
            names.add(attribute.label());
        }
        return names;
    }
}
