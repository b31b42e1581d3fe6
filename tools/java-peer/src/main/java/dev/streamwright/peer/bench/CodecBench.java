package dev.streamwright.peer.bench;

import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.utils.BufferSupplier;
import org.apache.kafka.common.utils.ByteBufferOutputStream;

/**
 * The Java client's cost per MB of each batch codec, through Kafka's own Compression classes (what
 * its producer and consumer run per batch), on the bytes of a file: the records section of a batch
 * written by bench/log/codecs.mjs, so both sides compress the same data.
 *
 * <pre>
 * CodecBench --input FILE --codec gzip|snappy|lz4|zstd [--seconds S] [--blocks B]
 * </pre>
 *
 * After a warm-up of S seconds it runs B blocks of S seconds each for compression, then the same
 * for decompression, and prints one JSON line: the codec, the input size, the compressed size,
 * and per direction the median over blocks of MB/s (of uncompressed bytes, wall time) and CPU ms
 * per uncompressed MB (this thread's CPU time).
 */
public final class CodecBench {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  public static void main(String[] args) throws Exception {
    String input = null;
    String codec = null;
    double seconds = 1;
    int blocks = 5;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--input" -> input = args[i + 1];
        case "--codec" -> codec = args[i + 1];
        case "--seconds" -> seconds = Double.parseDouble(args[i + 1]);
        case "--blocks" -> blocks = Integer.parseInt(args[i + 1]);
        default -> {
          System.err.println("CodecBench: unknown option " + args[i]);
          System.exit(2);
        }
      }
    }
    if (input == null || codec == null) {
      System.err.println("CodecBench: --input and --codec are required");
      System.exit(2);
    }
    byte[] data = Files.readAllBytes(Path.of(input));
    Compression compression = Compression.of(CompressionType.forName(codec)).build();
    byte[] compressed = compress(compression, data);
    long nanos = (long) (seconds * 1e9);
    measure(() -> compress(compression, data), nanos, 1, data.length);
    double[] c = measure(() -> compress(compression, data), nanos, blocks, data.length);
    measure(() -> decompress(compression, compressed), nanos, 1, data.length);
    double[] d = measure(() -> decompress(compression, compressed), nanos, blocks, data.length);
    System.out.printf(
        "{\"side\":\"java\",\"codec\":\"%s\",\"inputBytes\":%d,\"compressedBytes\":%d,"
            + "\"compress\":{\"mbPerSec\":%.1f,\"cpuMsPerMb\":%.2f},"
            + "\"decompress\":{\"mbPerSec\":%.1f,\"cpuMsPerMb\":%.2f}}%n",
        codec, data.length, compressed.length, c[0], c[1], d[0], d[1]);
  }

  private interface Op {
    Object run() throws Exception;
  }

  /** Median MB/s and CPU ms per MB over `blocks` blocks of about `nanos` each. */
  private static double[] measure(Op op, long nanos, int blocks, int bytes) throws Exception {
    List<Double> rates = new ArrayList<>();
    List<Double> cpu = new ArrayList<>();
    for (int b = 0; b < blocks; b++) {
      long start = System.nanoTime();
      long cpuStart = THREADS.getCurrentThreadCpuTime();
      long n = 0;
      Object sink = null;
      while (System.nanoTime() - start < nanos) {
        sink = op.run();
        n++;
      }
      if (sink == null) throw new IllegalStateException();
      double mb = (double) n * bytes / 1e6;
      rates.add(mb / ((System.nanoTime() - start) / 1e9));
      cpu.add((THREADS.getCurrentThreadCpuTime() - cpuStart) / 1e6 / mb);
    }
    Collections.sort(rates);
    Collections.sort(cpu);
    return new double[] {rates.get(blocks / 2), cpu.get(blocks / 2)};
  }

  private static byte[] compress(Compression compression, byte[] data) throws Exception {
    ByteBufferOutputStream out = new ByteBufferOutputStream(data.length / 2 + 64);
    try (OutputStream stream = compression.wrapForOutput(out, RecordBatch.MAGIC_VALUE_V2)) {
      stream.write(data);
    }
    ByteBuffer b = out.buffer();
    b.flip();
    byte[] result = new byte[b.remaining()];
    b.get(result);
    return result;
  }

  private static final BufferSupplier BUFFERS = BufferSupplier.create();

  private static byte[] decompress(Compression compression, byte[] data) throws Exception {
    byte[] out = new byte[64 * 1024];
    long total = 0;
    try (InputStream in =
        compression.wrapForInput(ByteBuffer.wrap(data), RecordBatch.MAGIC_VALUE_V2, BUFFERS)) {
      for (int n = in.read(out); n >= 0; n = in.read(out)) total += n;
    }
    if (total == 0) throw new IllegalStateException("nothing decompressed");
    return out;
  }
}
