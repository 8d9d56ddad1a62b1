package io.sluice.cli;

import io.sluice.client.Admin;
import io.sluice.client.ConsumerProgress;
import io.sluice.remoting.protocol.body.MessageQueue;
import io.sluice.remoting.protocol.body.TopicOffset;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code sluice admin group list|describe|reset|delete}: consumer groups, as {@code kafka-consumer-groups} users
 * expect them. A group exists when a master of the cluster has its subscription config (brokers create one at the
 * first heartbeat of a member unless {@code autoCreateSubscriptionGroup=false}); naming a group that does not is a
 * one-line error with exit code 1. Not thread-safe; one command per process.
 */
@Command(name = "group", mixinStandardHelpOptions = true,
        description = "Consumer groups: list, describe (offsets, lag, clients), reset offsets, delete.",
        subcommands = {GroupCommand.ListGroups.class, GroupCommand.Describe.class, GroupCommand.Reset.class,
            GroupCommand.Delete.class})
final class GroupCommand extends AdminCommand.Group {

    @Override
    String subcommandNames() {
        return "list, describe, reset or delete";
    }

    /** The cluster option every group subcommand takes. */
    static final class ClusterOption {
        @Option(names = {"-c", "--cluster"}, defaultValue = "DefaultCluster",
                description = "the cluster whose masters are asked (default: ${DEFAULT-VALUE})")
        String cluster;
    }

    /** The group's brokers (names); fails naming the group when no master of the cluster has it. */
    static Set<String> requireGroup(Admin admin, String group, String cluster) {
        Set<String> brokers = admin.groups(cluster).get(group);
        if (brokers == null) {
            throw new IllegalArgumentException("consumer group '" + group + "' does not exist on any master of"
                    + " cluster " + cluster + " (see 'sluice admin group list')");
        }
        return brokers;
    }

    /** A subcommand about one group, named by its first parameter. */
    abstract static class OneGroup implements Callable<Integer> {
        @ParentCommand
        GroupCommand parent;
        @Mixin
        ClusterOption target;
        @Parameters(index = "0", paramLabel = "GROUP", description = "the consumer group")
        String group;
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "List the consumer groups of a cluster and the brokers that have them.")
    static final class ListGroups implements Callable<Integer> {
        @ParentCommand
        GroupCommand parent;
        @Mixin
        ClusterOption target;

        @Override
        public Integer call() {
            try (Admin admin = parent.admin.start()) {
                Table table = new Table("GROUP", "BROKERS");
                admin.groups(target.cluster).forEach((group, brokers) -> table.row(group, String.join(",", brokers)));
                table.print(System.out);
            }
            return 0;
        }
    }

    @Command(name = "describe", mixinStandardHelpOptions = true,
            description = "Show a consumer group's offsets per queue: the queue's max offset, the committed offset,"
                    + " the lag, and the online client holding the queue.")
    static final class Describe extends OneGroup {

        @Override
        public Integer call() {
            try (Admin admin = parent.admin.start()) {
                requireGroup(admin, group, target.cluster);
                ConsumerProgress progress = admin.consumerProgress(group, null);
                Map<MessageQueue, String> holders = new TreeMap<>();
                Set<String> asked = new TreeSet<>();
                for (String broker : admin.masterAddresses(target.cluster)) {
                    for (String client : admin.consumerClientIds(group, broker)) {
                        // Every broker knows every member; each member is asked once, through the first.
                        if (asked.add(client)) {
                            admin.heldQueues(group, client, broker).forEach(q -> holders.putIfAbsent(q, client));
                        }
                    }
                }
                int online = asked.size();
                Table table = new Table("TOPIC", "BROKER", "QUEUE", "BROKER OFFSET", "COMMITTED OFFSET", "LAG",
                        "CLIENT");
                new TreeMap<>(progress.queues()).forEach((q, p) -> table.row(q.topic(), q.brokerName(), q.queueId(),
                        p.brokerOffset(), p.consumerOffset(), p.lag(), holders.getOrDefault(q, "-")));
                table.print(System.out);
                System.out.printf("group %s: %d online consumers, total lag %d%n", group, online,
                        progress.totalLag());
            }
            return 0;
        }
    }

    /** Where {@code group reset} moves the offsets: exactly one of these. */
    static final class ResetTarget {
        @Option(names = "--to-earliest", required = true, description = "the first message still stored")
        boolean earliest;
        @Option(names = "--to-latest", required = true, description = "after the last message stored")
        boolean latest;
        @Option(names = "--to-offset", required = true, paramLabel = "N",
                description = "offset N of every queue (kept within the queue's stored range)")
        Long offset;
        @Option(names = "--by-time", required = true, paramLabel = "TS", converter = TimestampConverter.class,
                description = "the first message stored at or after TS: epoch milliseconds or an ISO-8601 instant"
                        + " such as 2026-01-31T12:00:00Z")
        Long timestampMs;
    }

    @Command(name = "reset", mixinStandardHelpOptions = true,
            description = "Move a consumer group's offsets on a topic (committed at once; online consumers continue"
                    + " from there at their next pull). --dry-run shows the moves without making them.")
    static final class Reset extends OneGroup {
        @Option(names = {"-t", "--topic"}, required = true, description = "the topic")
        String topic;
        @ArgGroup(exclusive = true, multiplicity = "1")
        ResetTarget to;
        @Option(names = "--dry-run", description = "show the new offsets, change nothing")
        boolean dryRun;

        @Override
        public Integer call() {
            try (Admin admin = parent.admin.start()) {
                requireGroup(admin, group, target.cluster);
                TopicChecks.requireRoute(admin, topic);
                Map<MessageQueue, TopicOffset> ranges = new TreeMap<>(admin.topicStats(topic));
                Map<MessageQueue, ConsumerProgress.QueueProgress> current =
                        admin.consumerProgress(group, topic).queues();
                Table table = new Table("TOPIC", "BROKER", "QUEUE", "COMMITTED OFFSET", "NEW OFFSET");
                for (Map.Entry<MessageQueue, TopicOffset> range : ranges.entrySet()) {
                    MessageQueue queue = range.getKey();
                    long offset = targetOffset(admin, queue, range.getValue());
                    if (!dryRun) {
                        admin.resetOffset(group, queue, offset);
                    }
                    ConsumerProgress.QueueProgress before = current.get(queue);
                    table.row(queue.topic(), queue.brokerName(), queue.queueId(),
                            before == null ? "-" : before.consumerOffset(), offset);
                }
                table.print(System.out);
                System.out.println(dryRun ? "dry run: no offset changed" : "group " + group + ": " + ranges.size()
                        + " queues of " + topic + " reset");
            }
            return 0;
        }

        private long targetOffset(Admin admin, MessageQueue queue, TopicOffset range) {
            if (to.earliest) {
                return range.minOffset();
            }
            if (to.latest) {
                return range.maxOffset();
            }
            if (to.offset != null) {
                return Math.max(range.minOffset(), Math.min(range.maxOffset(), to.offset));
            }
            return admin.offsetAt(queue, to.timestampMs);
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true,
            description = "Delete a consumer group and its committed offsets from every master of a cluster; refused"
                    + " while members are online.")
    static final class Delete extends OneGroup {

        @Override
        public Integer call() {
            try (Admin admin = parent.admin.start()) {
                requireGroup(admin, group, target.cluster);
                List<String> brokers = admin.masterAddresses(target.cluster);
                for (String broker : brokers) {
                    int online = admin.consumerClientIds(group, broker).size();
                    if (online > 0) {
                        throw new IllegalArgumentException("consumer group '" + group + "' has " + online
                                + " online consumers on " + broker + ": stop them before deleting the group");
                    }
                }
                Table table = new Table("GROUP", "BROKER ADDRESS", "DELETED");
                for (String broker : brokers) {
                    table.row(group, broker, admin.deleteGroup(group, broker, true) ? "yes" : "not there");
                }
                table.print(System.out);
            }
            return 0;
        }
    }

    /** {@code --by-time}: epoch milliseconds or an ISO-8601 instant; anything else is a bad argument (exit 2). */
    static final class TimestampConverter implements ITypeConverter<Long> {
        @Override
        public Long convert(String text) {
            if (text.chars().allMatch(Character::isDigit) && !text.isEmpty()) {
                try {
                    return Long.parseLong(text);
                } catch (NumberFormatException e) {
                    throw new TypeConversionException("'" + text + "' is too large for epoch milliseconds");
                }
            }
            try {
                return Instant.parse(text).toEpochMilli();
            } catch (DateTimeParseException e) {
                throw new TypeConversionException("'" + text + "' is neither epoch milliseconds nor an ISO-8601"
                        + " instant such as 2026-01-31T12:00:00Z");
            }
        }
    }
}
