package dev.streamwright.peer;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * Apache Avro's Java library with a schema registry, in Confluent's wire format (a 0 magic byte,
 * the schema id as a big-endian int, the Avro binary body), as Confluent's KafkaAvroSerializer
 * frames it: registering through the Confluent-compatible REST API and reading with Avro's own
 * writer → reader schema resolution. The bytes travel through Kafka with the Interop program.
 *
 * <pre>
 * AvroRegistryCodec encode --registry URL --subject S --schema JSON
 *   Registers the schema under S (POST /subjects/S/versions); stdin: one datum a line in Avro's
 *   JSON encoding; stdout: one line a datum {"id": n, "bytes": b64}.
 * AvroRegistryCodec decode --registry URL [--reader-schema JSON]
 *   stdin: one framed value a line, base64; fetches each writer schema by id
 *   (GET /schemas/ids/N) and reads with the reader schema (default: the writer's); stdout: one
 *   line a value {"id": n, "value": the datum as Avro's GenericData prints it (JSON)}.
 * </pre>
 *
 * Bad options exit 2 naming the option; a refused registry call exits 1 with its answer.
 */
public final class AvroRegistryCodec {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

  public static void main(String[] args) throws Exception {
    if (args.length == 0) usage("a mode: encode or decode");
    Map<String, String> opts = new HashMap<>();
    for (int i = 1; i < args.length; i += 2) {
      if (i + 1 >= args.length) usage("a value for " + args[i]);
      opts.put(args[i], args[i + 1]);
    }
    String registry = opts.get("--registry");
    if (registry == null) usage("--registry");
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    switch (args[0]) {
      case "encode" -> encode(registry, opts, in, out);
      case "decode" -> decode(registry, opts, in, out);
      default -> usage("a mode: encode or decode, not " + args[0]);
    }
    out.flush();
  }

  private static void encode(
      String registry, Map<String, String> opts, BufferedReader in, PrintStream out)
      throws Exception {
    String subject = opts.get("--subject");
    String schemaText = opts.get("--schema");
    if (subject == null) usage("--subject");
    if (schemaText == null) usage("--schema");
    Schema schema = new Schema.Parser().parse(schemaText);
    ObjectNode body = JSON.createObjectNode().put("schema", schema.toString());
    String path = "/subjects/" + URLEncoder.encode(subject, StandardCharsets.UTF_8) + "/versions";
    int id = call(registry, path, body.toString()).get("id").asInt();
    GenericDatumWriter<Object> writer = new GenericDatumWriter<>(schema);
    for (String line; (line = in.readLine()) != null; ) {
      if (line.isBlank()) continue;
      Object datum = new GenericDatumReader<>(schema)
          .read(null, DecoderFactory.get().jsonDecoder(schema, line));
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      bytes.write(0);
      bytes.write(ByteBuffer.allocate(4).putInt(id).array());
      BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
      writer.write(datum, encoder);
      encoder.flush();
      ObjectNode row = JSON.createObjectNode();
      row.put("id", id);
      row.put("bytes", Base64.getEncoder().encodeToString(bytes.toByteArray()));
      out.println(row);
    }
  }

  private static void decode(
      String registry, Map<String, String> opts, BufferedReader in, PrintStream out)
      throws Exception {
    Schema reader =
        opts.containsKey("--reader-schema")
            ? new Schema.Parser().parse(opts.get("--reader-schema"))
            : null;
    Map<Integer, Schema> writers = new HashMap<>();
    for (String line; (line = in.readLine()) != null; ) {
      if (line.isBlank()) continue;
      ByteBuffer bytes = ByteBuffer.wrap(Base64.getDecoder().decode(line.trim()));
      // Confluent's AbstractKafkaSchemaSerDe#getByteBuffer: the magic byte first.
      if (bytes.get() != 0) throw new IllegalArgumentException("Unknown magic byte!");
      int id = bytes.getInt();
      Schema writer = writers.get(id);
      if (writer == null) {
        String text = call(registry, "/schemas/ids/" + id, null).get("schema").asText();
        writers.put(id, writer = new Schema.Parser().parse(text));
      }
      GenericDatumReader<Object> datumReader =
          new GenericDatumReader<>(writer, reader == null ? writer : reader);
      Object datum =
          datumReader.read(
              null,
              DecoderFactory.get()
                  .binaryDecoder(bytes.array(), bytes.position(), bytes.remaining(), null));
      ObjectNode row = JSON.createObjectNode();
      row.put("id", id);
      row.set("value", JSON.readTree(GenericData.get().toString(datum)));
      out.println(row);
    }
  }

  private static com.fasterxml.jackson.databind.JsonNode call(
      String registry, String path, String body) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(registry.replaceAll("/+$", "") + path))
            .header("Content-Type", CONTENT_TYPE)
            .header("Accept", CONTENT_TYPE);
    request =
        body == null
            ? request.GET()
            : request.POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    HttpResponse<String> response =
        HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    if (response.statusCode() / 100 != 2) {
      System.err.println(
          "schema registry " + path + ": HTTP " + response.statusCode() + ": " + response.body());
      System.exit(1);
    }
    return JSON.readTree(response.body());
  }

  private static void usage(String missing) {
    System.err.println("AvroRegistryCodec: needs " + missing);
    System.exit(2);
  }
}
