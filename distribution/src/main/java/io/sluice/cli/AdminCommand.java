package io.sluice.cli;

import io.sluice.client.Admin;
import io.sluice.client.BrokerErrorException;
import io.sluice.client.ConsumerProgress;
import io.sluice.format.ConsumeQueueType;
import io.sluice.client.TopicSpec;
import io.sluice.remoting.protocol.body.BrokerData;
import io.sluice.remoting.protocol.body.ClusterInfo;
import io.sluice.remoting.protocol.body.MessageQueue;
import io.sluice.remoting.protocol.body.QueueData;
import io.sluice.remoting.protocol.body.TopicOffset;
import io.sluice.remoting.protocol.body.TopicRouteData;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code sluice admin ...}: administration with the Sluice client's {@link Admin}; every answer is a table on
 * stdout; a failure is one line on stderr and exit code 1, a bad argument exit code 2. Works against Sluice and
 * Apache RocketMQ name servers and brokers alike. Not thread-safe; one command per process.
 */
@Command(name = "admin", mixinStandardHelpOptions = true,
        description = "Topics, clusters, brokers, consumer progress and consumer groups (tables on stdout).",
        subcommands = {AdminCommand.Topic.class, AdminCommand.Cluster.class, AdminCommand.Broker.class,
            AdminCommand.Consumer.class, GroupCommand.class})
final class AdminCommand implements Runnable {

    @Mixin
    ClientOptions client;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(),
                "missing subcommand: topic, cluster, broker, consumer or group");
    }

    Admin start() {
        return Admin.start(client.connection());
    }

    /** A subcommand that only groups others: run without one, it is a usage error naming them. */
    abstract static class Group implements Runnable {
        @ParentCommand
        AdminCommand admin;
        @Spec
        CommandSpec spec;

        /** The subcommands, for the error message. */
        abstract String subcommandNames();

        @Override
        public void run() {
            throw new ParameterException(spec.commandLine(), "missing subcommand: " + subcommandNames());
        }
    }

    /** {@code admin topic create|update|delete|list|route|status}. */
    @Command(name = "topic", mixinStandardHelpOptions = true,
            description = "Create, change, delete and inspect topics.",
            subcommands = {TopicCreate.class, TopicUpdate.class, TopicDelete.class, TopicList.class, TopicRoute.class,
                TopicStatus.class})
    static final class Topic extends Group {
        @Override
        String subcommandNames() {
            return "create, update, delete, list, route or status";
        }
    }

    /** Options naming one topic in one cluster. */
    static final class TopicTarget {
        @Option(names = {"-t", "--topic"}, required = true, description = "the topic")
        String topic;
        @Option(names = {"-c", "--cluster"}, defaultValue = "DefaultCluster",
                description = "the cluster whose masters get the change (default: ${DEFAULT-VALUE})")
        String cluster;
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Create a topic on every master of a cluster; fails if it exists (see --if-not-exists).")
    static final class TopicCreate implements Callable<Integer> {
        @ParentCommand
        Topic parent;
        @Mixin
        TopicTarget target;
        @Option(names = {"-q", "--queues"}, defaultValue = "8",
                description = "read and write queues per broker (default: ${DEFAULT-VALUE})")
        int queues;
        @Option(names = "--queue-type", defaultValue = "SimpleCQ",
                description = "SimpleCQ or BatchCQ (default: ${DEFAULT-VALUE})")
        String queueType;
        @Option(names = {"-p", "--perm"}, defaultValue = "6",
                description = "permission bits, 4 read + 2 write (default: ${DEFAULT-VALUE})")
        int perm;
        @Option(names = "--if-not-exists", description = "succeed without change when the topic exists")
        boolean ifNotExists;

        @Override
        public Integer call() {
            TopicSpec spec = TopicSpec.of(target.topic, queues).withPerm(perm).withQueueType(queueType(queueType));
            try (Admin admin = parent.admin.start()) {
                Optional<String> existing = TopicChecks.masterWith(admin, target.topic, target.cluster);
                if (existing.isPresent() && ifNotExists) {
                    System.out.println("topic " + target.topic + " exists on " + existing.get() + "; unchanged");
                    return 0;
                }
                if (existing.isPresent()) {
                    throw new IllegalArgumentException("topic '" + target.topic + "' already exists on "
                            + existing.get() + " (use 'admin topic update' to change it, or --if-not-exists)");
                }
                List<String> brokers = admin.createTopic(spec, target.cluster);
                Table table = new Table("TOPIC", "BROKER ADDRESS", "QUEUES", "QUEUE TYPE", "PERM");
                brokers.forEach(b -> table.row(spec.topic(), b, queues, spec.queueType().attributeValue(), perm));
                table.print(System.out);
            }
            return 0;
        }
    }

    @Command(name = "update", mixinStandardHelpOptions = true,
            description = "Change the queue counts or permission of a topic on every master of a cluster.")
    static final class TopicUpdate implements Callable<Integer> {
        @ParentCommand
        Topic parent;
        @Mixin
        TopicTarget target;
        @Option(names = {"-q", "--queues"}, required = true, description = "read and write queues per broker")
        int queues;
        @Option(names = {"-p", "--perm"}, defaultValue = "6",
                description = "permission bits (default: ${DEFAULT-VALUE})")
        int perm;

        @Override
        public Integer call() {
            try (Admin admin = parent.admin.start()) {
                List<String> masters = admin.masterAddresses(target.cluster);
                TopicSpec current = masters.stream().map(a -> admin.topicConfig(target.topic, a))
                        .filter(s -> s != null).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("topic '" + target.topic
                                + "' does not exist on any master of cluster " + target.cluster));
                TopicSpec spec = current.withQueueNums(queues, queues).withPerm(perm);
                admin.updateTopic(spec, target.cluster);
                new Table("TOPIC", "QUEUES", "QUEUE TYPE", "PERM")
                        .row(spec.topic(), queues, spec.queueType().attributeValue(), perm).print(System.out);
            }
            return 0;
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true,
            description = "Delete a topic from every master of a cluster and from the name servers.")
    static final class TopicDelete implements Callable<Integer> {
        @ParentCommand
        Topic parent;
        @Mixin
        TopicTarget target;

        @Override
        public Integer call() {
            try (Admin admin = parent.admin.start()) {
                if (TopicChecks.masterWith(admin, target.topic, target.cluster).isEmpty()) {
                    throw new IllegalArgumentException("topic '" + target.topic + "' does not exist on any master"
                            + " of cluster " + target.cluster);
                }
                admin.deleteTopic(target.topic, target.cluster);
                new Table("TOPIC", "CLUSTER", "DELETED").row(target.topic, target.cluster, "yes").print(System.out);
            }
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List every topic the name server knows.")
    static final class TopicList implements Callable<Integer> {
        @ParentCommand
        Topic parent;

        @Override
        public Integer call() {
            try (Admin admin = parent.admin.start()) {
                Table table = new Table("TOPIC");
                new TreeSet<>(admin.topicList()).forEach(table::row);
                table.print(System.out);
            }
            return 0;
        }
    }

    @Command(name = "route", mixinStandardHelpOptions = true, description = "Show a topic's route: brokers and queues.")
    static final class TopicRoute implements Callable<Integer> {
        @ParentCommand
        Topic parent;
        @Option(names = {"-t", "--topic"}, required = true, description = "the topic")
        String topic;

        @Override
        public Integer call() {
            try (Admin admin = parent.admin.start()) {
                TopicRouteData route = admin.topicRoute(topic);
                Map<String, String> masters = new TreeMap<>();
                for (BrokerData broker : route.brokerDatas()) {
                    masters.put(broker.brokerName(), broker.brokerAddrs().getOrDefault(BrokerData.MASTER_ID, "-"));
                }
                Table table = new Table("BROKER", "ADDRESS", "READ QUEUES", "WRITE QUEUES", "PERM");
                route.queueDatas().stream().sorted(Comparator.comparing(QueueData::brokerName))
                        .forEach(q -> table.row(q.brokerName(), masters.getOrDefault(q.brokerName(), "-"),
                                q.readQueueNums(), q.writeQueueNums(), q.perm()));
                table.print(System.out);
            }
            return 0;
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Show the min and max offset of every queue of a topic.")
    static final class TopicStatus implements Callable<Integer> {
        @ParentCommand
        Topic parent;
        @Option(names = {"-t", "--topic"}, required = true, description = "the topic")
        String topic;

        @Override
        public Integer call() {
            try (Admin admin = parent.admin.start()) {
                Map<MessageQueue, TopicOffset> stats = new TreeMap<>(admin.topicStats(topic));
                Table table = new Table("BROKER", "QUEUE", "MIN OFFSET", "MAX OFFSET", "LAST UPDATED");
                stats.forEach((q, o) -> table.row(q.brokerName(), q.queueId(), o.minOffset(), o.maxOffset(),
                        o.lastUpdateTimestamp() == 0 ? "-" : Instant.ofEpochMilli(o.lastUpdateTimestamp())));
                table.print(System.out);
            }
            return 0;
        }
    }

    /** {@code admin cluster list}. */
    @Command(name = "cluster", mixinStandardHelpOptions = true, description = "Clusters and brokers.",
            subcommands = ClusterList.class)
    static final class Cluster extends Group {
        @Override
        String subcommandNames() {
            return "list";
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "List clusters, their brokers and addresses.")
    static final class ClusterList implements Callable<Integer> {
        @ParentCommand
        Cluster parent;

        @Override
        public Integer call() {
            try (Admin admin = parent.admin.start()) {
                ClusterInfo info = admin.clusterInfo();
                Table table = new Table("CLUSTER", "BROKER", "ID", "ADDRESS");
                new TreeMap<>(info.clusterAddrTable()).forEach((cluster, names) -> new TreeSet<>(names)
                        .forEach(name -> {
                            BrokerData broker = info.brokerAddrTable().get(name);
                            if (broker == null) {
                                table.row(cluster, name, "-", "-");
                            } else {
                                new TreeMap<>(broker.brokerAddrs()).forEach((id, address) ->
                                        table.row(cluster, name, id, address));
                            }
                        }));
                table.print(System.out);
            }
            return 0;
        }
    }

    /** {@code admin broker status|config}. */
    @Command(name = "broker", mixinStandardHelpOptions = true, description = "Brokers.",
            subcommands = {BrokerStatus.class, BrokerConfig.class})
    static final class Broker extends Group {
        @Override
        String subcommandNames() {
            return "status or config";
        }
    }

    /** Options naming one broker, or every master of a cluster. */
    static final class BrokerTarget {
        @Option(names = {"-b", "--broker"}, paramLabel = "HOST:PORT", description = "one broker's address")
        String address;
        @Option(names = {"-c", "--cluster"}, defaultValue = "DefaultCluster",
                description = "without --broker, every master of this cluster (default: ${DEFAULT-VALUE})")
        String cluster;

        List<String> addresses(Admin admin) {
            List<String> addresses = address != null ? List.of(address) : admin.masterAddresses(cluster);
            if (addresses.isEmpty()) {
                throw new IllegalArgumentException("cluster " + cluster + " has no master registered");
            }
            return addresses;
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Show the runtime information of a broker, or of every master of a cluster.")
    static final class BrokerStatus implements Callable<Integer> {
        @ParentCommand
        Broker parent;
        @Mixin
        BrokerTarget target;

        @Override
        public Integer call() {
            try (Admin admin = parent.admin.start()) {
                Table table = new Table("BROKER ADDRESS", "KEY", "VALUE");
                for (String broker : target.addresses(admin)) {
                    new TreeMap<>(admin.brokerRuntimeInfo(broker)).forEach((k, v) -> table.row(broker, k, v));
                }
                table.print(System.out);
            }
            return 0;
        }
    }

    @Command(name = "config", mixinStandardHelpOptions = true,
            description = "Show the settings in force of a broker, or of every master of a cluster; with --set,"
                    + " change settings that can change while the broker runs first (kept across restarts).")
    static final class BrokerConfig implements Callable<Integer> {
        @ParentCommand
        Broker parent;
        @Mixin
        BrokerTarget target;
        @Option(names = "--set", paramLabel = "KEY=VALUE", description = "a setting to change (repeatable)")
        Map<String, String> changes = new TreeMap<>();

        @Override
        public Integer call() {
            try (Admin admin = parent.admin.start()) {
                List<String> addresses = target.addresses(admin);
                if (!changes.isEmpty()) {
                    for (String broker : addresses) {
                        update(admin, broker);
                    }
                }
                Table table = new Table("BROKER ADDRESS", "KEY", "VALUE");
                for (String broker : addresses) {
                    admin.brokerConfig(broker).forEach((k, v) -> {
                        if (changes.isEmpty() || changes.containsKey(k)) {
                            table.row(broker, k, v);
                        }
                    });
                }
                table.print(System.out);
            }
            return 0;
        }

        private void update(Admin admin, String broker) {
            try {
                admin.updateBrokerConfig(broker, changes);
            } catch (BrokerErrorException e) {
                // The remark says what was refused and why; the protocol code would only add noise.
                throw new IllegalArgumentException("broker " + broker + " refused the change: " + e.remark());
            }
        }
    }

    /** {@code admin consumer progress}. */
    @Command(name = "consumer", mixinStandardHelpOptions = true, description = "Consumer groups.",
            subcommands = ConsumerProgressCommand.class)
    static final class Consumer extends Group {
        @Override
        String subcommandNames() {
            return "progress";
        }
    }

    @Command(name = "progress", mixinStandardHelpOptions = true,
            description = "Show a consumer group's committed offsets and lag per queue.")
    static final class ConsumerProgressCommand implements Callable<Integer> {
        @ParentCommand
        Consumer parent;
        @Option(names = {"-g", "--group"}, required = true, description = "the consumer group")
        String group;
        @Option(names = {"-t", "--topic"}, description = "only this topic (default: every topic of the group)")
        String topic;

        @Override
        public Integer call() {
            try (Admin admin = parent.admin.start()) {
                ConsumerProgress progress = admin.consumerProgress(group, topic);
                if (progress.queues().isEmpty()) {
                    throw new IllegalArgumentException("consumer group '" + group + "' has no offsets"
                            + (topic == null ? "" : " for topic " + topic) + " on any broker: unknown group?");
                }
                Table table = new Table("TOPIC", "BROKER", "QUEUE", "BROKER OFFSET", "CONSUMER OFFSET", "LAG");
                new TreeMap<>(progress.queues()).forEach((q, p) -> table.row(q.topic(), q.brokerName(), q.queueId(),
                        p.brokerOffset(), p.consumerOffset(), p.lag()));
                table.print(System.out);
                System.out.printf("group %s: total lag %d, %.1f msg/s%n", group, progress.totalLag(),
                        progress.consumeTps());
            }
            return 0;
        }
    }

    static ConsumeQueueType queueType(String text) {
        for (ConsumeQueueType type : ConsumeQueueType.values()) {
            if (type.attributeValue().equalsIgnoreCase(text) || (type.name() + "_CQ").equalsIgnoreCase(text)) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown queue type '" + text + "': use SimpleCQ or BatchCQ");
    }
}
