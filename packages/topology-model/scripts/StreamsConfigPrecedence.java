import java.util.*;
import org.apache.kafka.streams.StreamsConfig;
// What Kafka Streams 4.1.1 hands its clients for one application config (the oracle of
// src/streams-config/resolve.test.ts). Run:
//   java -cp <kafka-clients-4.1.1.jar>:<kafka-streams-4.1.1.jar>:<slf4j-api.jar> StreamsConfigPrecedence.java
public class StreamsConfigPrecedence {
  public static void main(String[] a) {
    Properties p = new Properties();
    p.put("application.id", "app"); p.put("bootstrap.servers", "x:1");
    p.put("session.timeout.ms", "1000");
    p.put("consumer.session.timeout.ms", "2000");
    p.put("main.consumer.session.timeout.ms", "3000");
    p.put("consumer.heartbeat.interval.ms", "500");
    p.put("consumer.foo.bar", "1");
    p.put("my.custom", "c");
    p.put("linger.ms", "7");
    p.put("producer.linger.ms", "8");
    p.put("request.timeout.ms", "9");
    p.put("admin.retries", "3");
    p.put("topic.min.insync.replicas", "2");
    p.put("enable.auto.commit", "true");
    p.put("replication.factor", "3");
    StreamsConfig c = new StreamsConfig(p);
    System.out.println("main " + new TreeMap<>(c.getMainConsumerConfigs("g","c",1)));
    System.out.println("restore " + new TreeMap<>(c.getRestoreConsumerConfigs("c")));
    System.out.println("global " + new TreeMap<>(c.getGlobalConsumerConfigs("c")));
    System.out.println("producer " + new TreeMap<>(c.getProducerConfigs("c")));
    System.out.println("admin " + new TreeMap<>(c.getAdminConfigs("c")));
  }
}
