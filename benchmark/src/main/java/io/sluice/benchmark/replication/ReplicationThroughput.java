package io.sluice.benchmark.replication;

import io.sluice.benchmark.BenchFiles;
import io.sluice.client.Admin;
import io.sluice.client.TopicSpec;
import io.sluice.namesrv.NameServer;
import io.sluice.namesrv.NamesrvSettings;
import io.sluice.remoting.transport.ServerTls;
import io.sluice.remoting.transport.TlsMode;
import java.io.IOException;
import java.io.Writer;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;

/**
 * SYNC_MASTER against ASYNC_MASTER throughput from one producer, and what replication costs the master's CPU: an
 * embedded name server; a master and a slave, each in its own JVM ({@code BrokerMain}, stores in {@code /dev/shm}
 * when it exists; a topic of 8 queues); one Apache producer in this JVM sending 1 KiB messages asynchronously with
 * at most {@code inflight} unanswered. After a warm-up it counts messages acknowledged SEND_OK per second, and the
 * master process's CPU time per acknowledged message over the same window (also without its JIT compiler threads,
 * and its HA threads' alone: {@link ThreadCpu}). Three setups, alternated {@code rounds}
 * times so that each sees the same machine load: ASYNC_MASTER alone (no replication), ASYNC_MASTER and
 * SYNC_MASTER with a slave.
 *
 * <p>Usage: {@code ReplicationThroughput [rounds=2] [seconds=10] [inflight=256]}. With
 * {@code -Dreplication.profiler=/path/libasyncProfiler.so} the master runs under async-profiler (CPU samples),
 * writing one collapsed-stack file per setup and round beside the working directory
 * ({@code master-<round>-<role>-<slave>.collapsed}); its CPU figures then include the profiler's. With
 * {@code -Dreplication.tls=DIR} ({@code DIR/server.crt}, {@code DIR/server.key}: PEM certificate and PKCS#8 key)
 * the name server and every master run {@code tls.server.mode=permissive} (the producer stays plain) and each
 * setup with a slave is run twice, with a plain slave and with a TLS slave ({@code tls.enable=true}), so that the
 * two differ only in the HA channel's encryption.
 */
public final class ReplicationThroughput {

    private static final String TOPIC = "ReplicationThroughput";
    private static final int BODY_BYTES = 1024;
    private static final long WARMUP_MS = 3_000;
    private static final long READY_TIMEOUT_MS = 60_000;

    private ReplicationThroughput() {
    }

    /** One measured setup: the master's role, whether a slave copies it, and whether over TLS. */
    private record Setup(String role, boolean slave, boolean tls) {
        String label() {
            return role + (slave ? tls ? " + TLS slave" : " + slave" : " alone");
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int inflight = args.length > 2 ? Integer.parseInt(args[2]) : 256;
        Optional<Path> tlsDir = Optional.ofNullable(System.getProperty("replication.tls")).map(Path::of);
        List<Setup> setups = new ArrayList<>(List.of(new Setup("ASYNC_MASTER", false, false),
                new Setup("ASYNC_MASTER", true, false)));
        tlsDir.ifPresent(dir -> setups.add(new Setup("ASYNC_MASTER", true, true)));
        setups.add(new Setup("SYNC_MASTER", true, false));
        tlsDir.ifPresent(dir -> setups.add(new Setup("SYNC_MASTER", true, true)));
        for (int round = 1; round <= rounds; round++) {
            for (Setup setup : setups) {
                run(round, setup, seconds, inflight, tlsDir);
            }
        }
    }

    private static void run(int round, Setup setup, int seconds, int inflight, Optional<Path> tlsDir)
            throws Exception {
        Path root = BenchFiles.newRoot("sluice-replication-bench");
        // A TLS slave registers over TLS: the name server then takes both.
        NameServer namesrv = new NameServer(NamesrvSettings.defaults().withListen("127.0.0.1", 0)
                .withTls(tlsDir.map(dir -> ServerTls.of(TlsMode.PERMISSIVE, dir.resolve("server.crt"),
                        dir.resolve("server.key"))).orElse(ServerTls.disabled())));
        namesrv.start();
        String namesrvAddr = "127.0.0.1:" + namesrv.port();
        int masterPort = freePort();
        String profiler = System.getProperty("replication.profiler", "");
        List<String> masterOptions = profiler.isEmpty() ? List.of() : List.of("-agentpath:" + profiler
                + "=start,event=cpu,interval=1ms,file=" + Path.of("master-" + round + "-" + setup.role() + "-"
                + setup.slave() + setup.tls() + ".collapsed").toAbsolutePath());
        Properties masterTls = new Properties();
        Properties slaveTls = new Properties();
        tlsDir.ifPresent(dir -> {
            masterTls.setProperty("tls.server.mode", "permissive");
            masterTls.setProperty("tls.server.certPath", dir.resolve("server.crt").toString());
            masterTls.setProperty("tls.server.keyPath", dir.resolve("server.key").toString());
        });
        if (setup.tls()) {
            slaveTls.setProperty("tls.enable", "true");
            slaveTls.setProperty("tls.client.trustCertPath", tlsDir.orElseThrow().resolve("server.crt").toString());
        }
        Process master = startBroker(root, namesrvAddr, "master", 0, setup.role(), masterPort, masterOptions,
                masterTls);
        Optional<Process> slave = setup.slave()
                ? Optional.of(startBroker(root, namesrvAddr, "slave", 1, "SLAVE", freePort(), List.of(), slaveTls))
                : Optional.empty();
        DefaultMQProducer producer = new DefaultMQProducer("bench-pg");
        producer.setNamesrvAddr(namesrvAddr);
        producer.setInstanceName("bench-producer-" + round + "-" + setup.role() + setup.slave() + setup.tls());
        producer.setSendMsgTimeout(10_000);
        try (Admin admin = Admin.start(namesrvAddr)) {
            awaitBrokers(admin, setup.slave() ? 2 : 1);
            admin.createTopicOnBroker(TopicSpec.of(TOPIC, 8), "127.0.0.1:" + masterPort);
            producer.start();
            awaitSendOk(producer);
            Semaphore window = new Semaphore(inflight);
            AtomicLong ok = new AtomicLong();
            AtomicLong other = new AtomicLong();
            byte[] body = new byte[BODY_BYTES];
            SendCallback callback = new SendCallback() {
                @Override
                public void onSuccess(SendResult result) {
                    (result.getSendStatus() == SendStatus.SEND_OK ? ok : other).incrementAndGet();
                    window.release();
                }

                @Override
                public void onException(Throwable e) {
                    if (other.getAndIncrement() == 0) {
                        System.out.println("  first failed send: " + e);
                    }
                    window.release();
                }
            };
            long measureFrom = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WARMUP_MS);
            long end = measureFrom + TimeUnit.SECONDS.toNanos(seconds);
            long okAtStart = -1;
            long cpuAtStartNs = 0;
            ThreadCpu threadsAtStart = null;
            while (System.nanoTime() < end) {
                if (okAtStart < 0 && System.nanoTime() >= measureFrom) {
                    okAtStart = ok.get();
                    cpuAtStartNs = cpuNs(master);
                    threadsAtStart = ThreadCpu.of(master.pid());
                }
                window.acquire();
                producer.send(new Message(TOPIC, body), callback);
            }
            long measured = ok.get() - okAtStart;
            long cpuNs = cpuNs(master) - cpuAtStartNs;
            ThreadCpu threads = ThreadCpu.of(master.pid()).minus(threadsAtStart);
            window.acquire(inflight);
            double perMessageNs = Math.max(1, measured) * 1_000.0;
            System.out.printf("round %d %-22s %,10.0f msg/s  master CPU %,6.1f us/msg (without JIT %,5.1f,"
                            + " HA threads %,5.1f)%s%n", round, setup.label(), measured / (double) seconds,
                    cpuNs / perMessageNs, (threads.totalNs() - threads.jitNs()) / perMessageNs,
                    threads.haNs() / perMessageNs, other.get() > 0 ? "  (" + other.get() + " sends not SEND_OK)" : "");
        } finally {
            producer.shutdown();
            slave.ifPresent(ReplicationThroughput::stop);
            stop(master);
            namesrv.close();
            BenchFiles.deleteRecursively(root);
        }
    }

    /** CPU time the process has used so far, every thread included. */
    private static long cpuNs(Process process) {
        return process.toHandle().info().totalCpuDuration().map(Duration::toNanos)
                .orElseThrow(() -> new IllegalStateException("this OS does not report a process's CPU time"));
    }

    private static void awaitBrokers(Admin admin, int brokers) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READY_TIMEOUT_MS);
        while (registered(admin) < brokers) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(brokers + " brokers did not register within " + READY_TIMEOUT_MS
                        + " ms");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    /** Brokers (masters and slaves) the name server knows. */
    private static int registered(Admin admin) {
        return admin.clusterInfo().brokerAddrTable().values().stream().mapToInt(b -> b.brokerAddrs().size()).sum();
    }

    /** Sends one message at a time until one is SEND_OK (a SYNC_MASTER's slave has connected). */
    private static void awaitSendOk(DefaultMQProducer producer) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READY_TIMEOUT_MS);
        while (producer.send(new Message(TOPIC, new byte[BODY_BYTES])).getSendStatus() != SendStatus.SEND_OK) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("no send was acknowledged within " + READY_TIMEOUT_MS + " ms");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    private static Process startBroker(Path root, String namesrvAddr, String name, int brokerId, String role,
                                       int port, List<String> jvmOptions, Properties extra) throws IOException {
        Properties conf = new Properties();
        conf.putAll(extra);
        conf.setProperty("namesrvAddr", namesrvAddr);
        conf.setProperty("brokerName", "bench-a");
        conf.setProperty("brokerId", Integer.toString(brokerId));
        conf.setProperty("brokerRole", role);
        conf.setProperty("listenPort", Integer.toString(port));
        conf.setProperty("haListenPort", Integer.toString(freePort()));
        conf.setProperty("brokerIP1", "127.0.0.1");
        conf.setProperty("storePathRootDir", root.resolve(name).toString());
        conf.setProperty("mappedFileSizeCommitLog", Integer.toString(256 * 1024 * 1024));
        Path file = root.resolve(name + ".conf");
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            conf.store(out, "replication benchmark " + name);
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xms512m", "-Xmx512m", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.sluice.broker.BrokerMain", "broker",
                "-c", file.toString()));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(root.resolve(name + ".log").toFile())
                .start();
    }

    private static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
