package io.sluice.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every citation of a design document section in the code ({@code docs/storage.md#batchcq-slots}) and every link
 * between the documents names a heading that exists, so a renamed section cannot leave comments pointing nowhere.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DesignDocsTest {

    private static final Path ROOT = Path.of("..");
    private static final Path DOCS = ROOT.resolve("distribution/src/docs");
    private static final Pattern CITATION = Pattern.compile("docs/([a-z][a-z0-9-]*\\.md)(#[a-z0-9-]+)?");
    private static final Pattern LINK = Pattern.compile("\\]\\(([a-z][a-z0-9-]*\\.md)?(#[a-z0-9-]+)?\\)");
    private static final Pattern HEADING = Pattern.compile("(?m)^#+ (.+)$");

    @Test
    void theDesignDocumentsAreThere() {
        for (String doc : List.of("wire-protocol.md", "storage.md", "dispatch.md", "replication.md", "security.md",
                "metrics.md")) {
            assertTrue(Files.isRegularFile(DOCS.resolve(doc)), "distribution/src/docs/" + doc);
        }
    }

    @Test
    void everyCitationInTheCodeNamesAnExistingSection() throws IOException {
        List<String> broken = new ArrayList<>();
        int citations = 0;
        for (Path source : sources()) {
            Matcher m = CITATION.matcher(Files.readString(source, StandardCharsets.UTF_8));
            while (m.find()) {
                citations++;
                String problem = problem(m.group(1), m.group(2));
                if (problem != null) {
                    broken.add(ROOT.relativize(source) + ": " + m.group() + " (" + problem + ")");
                }
            }
        }
        assertTrue(citations > 50, "the code cites the design documents (" + citations + " citations found)");
        assertEquals(List.of(), broken, "citations of missing documents or sections");
    }

    @Test
    void everyLinkBetweenTheDocumentsNamesAnExistingSection() throws IOException {
        List<String> broken = new ArrayList<>();
        try (Stream<Path> docs = Files.list(DOCS)) {
            for (Path doc : docs.filter(p -> p.toString().endsWith(".md")).toList()) {
                Matcher m = LINK.matcher(Files.readString(doc, StandardCharsets.UTF_8));
                while (m.find()) {
                    String target = m.group(1) != null ? m.group(1) : doc.getFileName().toString();
                    String problem = problem(target, m.group(2));
                    if (problem != null) {
                        broken.add(doc.getFileName() + ": " + m.group() + " (" + problem + ")");
                    }
                }
            }
        }
        assertEquals(List.of(), broken, "links to missing documents or sections");
    }

    @Test
    void anchorsFollowTheRenderersRule() {
        assertEquals("batchcq-slots", anchor("BatchCQ slots"));
        assertEquals("sync_master-and-slave-reads", anchor("SYNC_MASTER and slave reads"));
        assertEquals("storage-how-sluice-keeps-messages-on-disk", anchor("Storage: how Sluice keeps messages on disk"));
    }

    /** Why {@code doc}{@code fragment} does not resolve, or null when it does. */
    private static String problem(String doc, String fragment) {
        Path file = DOCS.resolve(doc);
        if (!Files.isRegularFile(file)) {
            return "no such document";
        }
        if (fragment != null && !anchors(file).contains(fragment.substring(1))) {
            return "no such section";
        }
        return null;
    }

    /** The anchors a Markdown renderer gives the document's headings. */
    private static Set<String> anchors(Path doc) {
        try {
            Set<String> anchors = new HashSet<>();
            Matcher m = HEADING.matcher(Files.readString(doc, StandardCharsets.UTF_8));
            while (m.find()) {
                anchors.add(anchor(m.group(1)));
            }
            return anchors;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** GitHub's rule: lower case, punctuation but hyphens and underscores dropped, spaces become hyphens. */
    private static String anchor(String heading) {
        return heading.trim().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9 _-]", "").replace(' ', '-');
    }

    private static List<Path> sources() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT)) {
            return files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> p.toString().contains("/src/"))
                    .filter(p -> !p.toString().contains("/target/") && !p.toString().contains("/.git/"))
                    .toList();
        }
    }
}
