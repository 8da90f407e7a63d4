package org.metaroce.mrct.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every method of {@link ControlPlane}, defaults included, reaches the delegate with its arguments and its answer. */
class ForwardingControlPlaneTest {
    private static Object sample(final Class<?> type, final int i) {
        if (type == int.class) {
            return 100 + i;
        }
        if (type == long.class) {
            return 1000L + i;
        }
        return null; // objects pass through as they are; null is as good as any to see that they arrive
    }

    @Test
    void everyCallIsForwardedWithItsArgumentsAndAnswer() throws Exception {
        final List<String> calls = new ArrayList<>();
        final ControlPlane recorder = (ControlPlane) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {ControlPlane.class}, (proxy, method, args) -> {
                calls.add(method.getName() + Arrays.toString(args == null ? new Object[0] : args));
                return sample(method.getReturnType(), 7);
            });
        final ControlPlane forwarding = new ForwardingControlPlane(recorder) {
        };
        int methods = 0;
        for (final Method method : ControlPlane.class.getMethods()) {
            if (Modifier.isStatic(method.getModifiers())) {
                continue;
            }
            methods++;
            final Object[] args = new Object[method.getParameterCount()];
            for (int i = 0; i < args.length; i++) {
                args[i] = sample(method.getParameterTypes()[i], i);
            }
            calls.clear();
            final Object answer = method.invoke(forwarding, args);
            assertThat(calls).as(method.getName()).containsExactly(method.getName() + Arrays.toString(args));
            assertThat(answer).as(method.getName() + "'s answer").isEqualTo(sample(method.getReturnType(), 7));
        }
        assertThat(methods).as("ControlPlane's methods").isGreaterThanOrEqualTo(16);
    }
}
