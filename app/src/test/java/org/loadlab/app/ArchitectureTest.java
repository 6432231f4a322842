package org.loadlab.app;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.time.Instant;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layers of docs/architecture.md, checked on the compiled classes (ArchUnit): which
 * layer may use which, no package cycles anywhere, and the protocol cores free of Pekko,
 * picocli and Pekko HTTP, of the wall clock and of global randomness, so that the simulation
 * and the Pekko shells run the very same code with the same results.
 */
class ArchitectureTest {
    /** The protocol cores and the simulation kernel: what every mode runs. */
    private static final String[] CORES = {"org.loadlab.kernel..", "org.loadlab.node..", "org.loadlab.balancer..",
            "org.loadlab.workload.."};

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.loadlab");
    }

    @Test
    void layersUseOnlyTheLayersBelowThem() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("kernel").definedBy("org.loadlab.kernel..")
                .layer("node").definedBy("org.loadlab.node..")
                .layer("balancer").definedBy("org.loadlab.balancer..")
                .layer("workload").definedBy("org.loadlab.workload..")
                .layer("analysis").definedBy("org.loadlab.analysis..")
                .layer("experiment").definedBy("org.loadlab.experiment..")
                .layer("studies").definedBy("org.loadlab.studies..")
                .layer("shell").definedBy("org.loadlab.shell..")
                .layer("app").definedBy("org.loadlab.app..")
                .whereLayer("app").mayNotBeAccessedByAnyLayer()
                .whereLayer("shell").mayOnlyBeAccessedByLayers("app")
                .whereLayer("studies").mayOnlyBeAccessedByLayers("app")
                .whereLayer("experiment").mayOnlyBeAccessedByLayers("studies", "shell", "app")
                .whereLayer("analysis").mayOnlyBeAccessedByLayers("experiment", "studies", "shell", "app")
                .whereLayer("workload").mayOnlyBeAccessedByLayers("experiment", "studies", "shell", "app")
                .whereLayer("balancer").mayOnlyBeAccessedByLayers("experiment", "studies", "shell", "app")
                .whereLayer("node").mayOnlyBeAccessedByLayers("balancer", "workload", "experiment", "studies", "shell", "app")
                .check(classes);
    }

    @Test
    void noPackageCycles() {
        slices().matching("org.loadlab.(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void coresUseNoPekkoNoPicocliNoHttp() {
        noClasses().that().resideInAnyPackage(CORES)
                .should().dependOnClassesThat().resideInAnyPackage("org.apache.pekko..", "picocli..", "kamon..")
                .because("the cores run unchanged in the simulation and in the Pekko shells")
                .check(classes);
    }

    @Test
    void coresReadNoWallClockAndNoGlobalRandomness() {
        // The in-process library (balancer.library) is no protocol core: it serves an application's threads and
        // may seed itself when the application gives no random source.
        noClasses().that().resideInAnyPackage(CORES).and().resideOutsideOfPackage("org.loadlab.balancer.library..")
                .should().callMethod(System.class, "nanoTime")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(Instant.class, "now")
                .orShould().callMethod(Math.class, "random")
                .orShould().callMethod(ThreadLocalRandom.class, "current")
                .orShould().callMethod(UUID.class, "randomUUID")
                .orShould().callConstructor(Random.class)
                .orShould().callConstructor(SplittableRandom.class)
                .because("a simulation with the same scenario and seed must give byte-identical results")
                .check(classes);
    }
}
