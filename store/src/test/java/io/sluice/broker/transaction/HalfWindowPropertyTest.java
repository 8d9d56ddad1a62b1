package io.sluice.broker.transaction;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The transaction thread's window of half messages against a model (a set of decided offsets, a map of check
 * counts, a raised floor): whatever the order of decisions, checks and floor raises, including runs long enough to
 * make the window compact itself, both answer the same for every offset.
 */
class HalfWindowPropertyTest {

    /** One step: 0 decide a run of {@code length} from {@code offset}, 1 set checks, 2 raise the floor. */
    record Step(int kind, long offset, int length, int checks) {
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<Step> step = Combinators.combine(Arbitraries.integers().between(0, 2),
                Arbitraries.longs().between(0, 12_000), Arbitraries.of(1, 1, 1, 50, 5_000),
                Arbitraries.integers().between(-2, 40_000))
                .as(Step::new);
        return step.list().ofMinSize(1).ofMaxSize(60);
    }

    @Property(tries = 100)
    void theWindowAnswersAsTheModelDoes(@ForAll @IntRange(max = 3_000) int initialFloor,
                                        @ForAll("steps") List<Step> steps) {
        HalfWindow window = new HalfWindow(initialFloor);
        Set<Long> decided = new HashSet<>();
        Map<Long, Integer> checks = new HashMap<>();
        long raised = initialFloor;
        for (Step s : steps) {
            switch (s.kind()) {
                case 0 -> {
                    for (long o = s.offset(); o < s.offset() + s.length(); o++) {
                        window.decide(o);
                        decided.add(o);
                        checks.remove(o);
                    }
                }
                case 1 -> {
                    window.setChecks(s.offset(), s.checks());
                    if (!(s.offset() < raised || decided.contains(s.offset()))) {
                        checks.put(s.offset(), Math.min(Short.MAX_VALUE, Math.max(0, s.checks())));
                    }
                }
                default -> {
                    window.raiseFloor(s.offset());
                    raised = Math.max(raised, s.offset());
                }
            }
            long floor = raised;
            while (decided.contains(floor)) {
                floor++;
            }
            assertEquals(floor, window.floor(), "after " + s);
        }
        for (long o = 0; o < 18_000; o++) {
            boolean isDecided = o < raised || decided.contains(o);
            assertEquals(isDecided, window.isDecided(o), "offset " + o);
            assertEquals(isDecided ? 0 : checks.getOrDefault(o, 0), window.checks(o), "checks of " + o);
        }
    }
}
