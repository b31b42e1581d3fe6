// Our generated codecs against the Java client's own generated message classes
// (org.apache.kafka.common.message.*Data of kafka-clients 4.1.1, run by tools/java-peer's
// CodecCheck), for every definition, every version, request and response: random messages
// derived from the schema itself, and for each one
//   (1) our bytes == the bytes Java writes for the same message (via its JsonConverter),
//   (2) Java parses our bytes back to the same message (its JSON, equals(), re-serialised bytes),
//   (3) our decoder parses Java's bytes to the same message.
// Plus: unknown tagged fields survive a trip through Java, fields a version lacks are refused
// (or dropped when ignorable) exactly when Java refuses (drops) them, every truncation of a
// message is a MalformedMessageError, and Kafka's error-code table matches the Errors enum.
// One JVM runs all cases (its start-up dominates).
import { runPeer } from '@streamwright/java-peer';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { apis, messages } from '../src/generated/apis.js';
import { definitions } from '../src/generated/schema.js';
import { errorCodes } from '../src/error-codes.js';
import { MalformedMessageError, UnsupportedVersionError } from '../src/runtime/errors.js';
import { Reader } from '../src/runtime/reader.js';
import {
  decodeRequestFrame,
  decodeResponseFrame,
  encodeRequestFrame,
  encodeResponseFrame,
  responseCorrelationId,
} from '../src/frames.js';
import type { FieldDefinition, MessageDefinition } from '../src/schema-types.js';
import {
  defaultOf,
  fieldValueArb,
  fromJavaJson,
  inRange,
  structArb,
  toJavaJson,
  versionsOf,
  type Obj,
} from './schema-model.js';

const SEED = Number(process.env.KAFKA_PROTOCOL_SEED ?? 20261207);
const CASES_PER_VERSION = Number(process.env.KAFKA_PROTOCOL_CASES ?? 6);

interface Codec {
  encode(value: Obj, version: number): Buffer;
  decode(bytes: Uint8Array, version: number): Obj;
}

type AnyCodecs = Record<string, { encodeRequest?: unknown }>;
function codecOf(def: MessageDefinition): Codec {
  if (def.apiKey === null) {
    const m = (messages as unknown as Record<string, Codec>)[def.name];
    if (!m) throw new Error(`no codec for ${def.name}`);
    return m;
  }
  const base = def.name.replace(/(Request|Response)$/, '');
  const api = (apis as unknown as AnyCodecs)[base] as unknown as Record<string, Codec['encode']>;
  const kind = def.type === 'request' ? 'Request' : 'Response';
  return {
    encode: api[`encode${kind}`] as Codec['encode'],
    decode: api[`decode${kind}`] as unknown as Codec['decode'],
  };
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

type Kind = 'random' | 'unknownTags' | 'absentField';
interface Case {
  def: MessageDefinition;
  version: number;
  kind: Kind;
  value: Obj;
  ourHex: string | null;
  ourError: unknown;
  field?: FieldDefinition;
  json: string | null;
}

interface JavaResult {
  javaHex?: string;
  jsonError?: string;
  writeError?: string;
  readError?: string;
  parsedJson?: Obj;
  reHex?: string;
  equal?: boolean;
  setupError?: string;
}

function encodeOurs(c: Omit<Case, 'ourHex' | 'ourError'>): Case {
  try {
    return { ...c, ourHex: hex(codecOf(c.def).encode(c.value, c.version)), ourError: null };
  } catch (e) {
    return { ...c, ourHex: null, ourError: e };
  }
}

function buildCases(): Case[] {
  const cases: Case[] = [];
  let seed = SEED;
  for (const def of definitions) {
    for (const version of versionsOf(def)) {
      const arb = structArb(def, def.root, version);
      for (const value of fc.sample(arb, { numRuns: CASES_PER_VERSION, seed: seed++ })) {
        cases.push(
          encodeOurs({
            def,
            version,
            kind: 'random',
            value,
            json: toJavaJson(def, def.root, version, value),
          }),
        );
      }
      // Unknown tagged fields (flexible versions): Java must keep them and write them back.
      if (inRange(def.flexibleVersions, version)) {
        const [value] = fc.sample(arb, { numRuns: 1, seed: seed++ });
        const withUnknown = {
          ...value!,
          _unknownTaggedFields: [
            { tag: 1000, data: Buffer.from([1, 2, 3]) },
            { tag: 70000, data: Buffer.alloc(200, 9) },
          ],
        };
        cases.push(
          encodeOurs({ def, version, kind: 'unknownTags', value: withUnknown, json: null }),
        );
      }
      // A root field this version lacks, set to a non-default value.
      for (const f of def.root.fields) {
        if (inRange(f.versions, version) || !isSimple(f)) continue;
        const at = Math.max(f.versions.lo, def.validVersions.lo);
        if (at > def.validVersions.hi) continue;
        const candidates = fc.sample(fieldValueArb(def, f, at), { numRuns: 20, seed: seed++ });
        const nonDefault = candidates.find((x) => !isDeepDefault(x, defaultOf(def, f)));
        if (nonDefault === undefined) continue;
        const [base] = fc.sample(arb, { numRuns: 1, seed: seed++ });
        const value = { ...base!, [f.camel]: nonDefault };
        cases.push(
          encodeOurs({
            def,
            version,
            kind: 'absentField',
            value,
            field: f,
            json: toJavaJson(def, def.root, version, value, [f]),
          }),
        );
      }
    }
  }
  return cases;
}

const isSimple = (f: FieldDefinition) =>
  f.type.kind === 'primitive' || (f.type.kind === 'array' && f.type.element.kind === 'primitive');

function isDeepDefault(a: unknown, b: unknown): boolean {
  try {
    expect(a).toEqual(b);
    return true;
  } catch {
    return false;
  }
}

let cases: Case[] = [];
let results: JavaResult[] = [];

beforeAll(async () => {
  const started = Date.now();
  cases = buildCases();
  const input = `{"cases":[${cases
    .map(
      (c) =>
        `{"message":${JSON.stringify(c.def.name)},"version":${c.version},"json":${c.json ?? 'null'},"hex":${
          c.ourHex === null ? 'null' : JSON.stringify(c.ourHex)
        }}`,
    )
    .join(',')}]}`;
  const built = Date.now();
  const output = JSON.parse(await runPeer('CodecCheck', { input, jvmArgs: ['-Xmx1g'] })) as {
    results: JavaResult[];
  };
  results = output.results;
  const counts = { random: 0, unknownTags: 0, absentField: 0 };
  for (const c of cases) counts[c.kind]++;
  console.log(
    `kafka-protocol vs Java: ${cases.length} cases (${counts.random} random, ${counts.unknownTags} with unknown tagged fields, ${counts.absentField} absent-field) over ${definitions.length} definitions, ${new Set(cases.map((c) => `${c.def.name}/${c.version}`)).size} message versions; seed ${SEED}; generated in ${built - started} ms, Java ${Date.now() - built} ms`,
  );
}, 600_000);

function check(c: Case, r: JavaResult): string[] {
  const at = `${c.def.name} v${c.version}`;
  const problems: string[] = [];
  const fail = (what: string) =>
    problems.push(`${at} [${c.kind}${c.field ? ` ${c.field.camel}` : ''}]: ${what}`);
  if (r.setupError) return [`${at}: CodecCheck could not load the Java classes: ${r.setupError}`];
  const codec = codecOf(c.def);
  if (c.kind === 'random') {
    if (c.ourError) return [`${at}: our encoder threw ${String(c.ourError)}`];
    if (r.jsonError || r.writeError)
      return [`${at}: Java could not take the JSON: ${r.jsonError ?? r.writeError}`];
    // (1) same bytes
    if (r.javaHex !== c.ourHex) fail(`bytes differ\n  ours ${c.ourHex}\n  Java ${r.javaHex}`);
    // (2) Java reads our bytes as the same message
    if (r.readError) fail(`Java cannot read our bytes: ${r.readError}`);
    else {
      if (r.equal !== true)
        fail('Java parsed our bytes to a message not equal to the one it read from JSON');
      if (r.reHex !== c.ourHex) fail(`Java re-serialised our bytes differently: ${r.reHex}`);
      const back = fromJavaJson(c.def, c.def.root, c.version, r.parsedJson!, c.value);
      if (!isDeepDefault(back, c.value))
        fail(`Java's reading of our bytes differs: ${JSON.stringify(r.parsedJson)}`);
    }
    // (3) we read Java's bytes as the same message
    if (r.javaHex !== undefined) {
      try {
        const ours = codec.decode(Buffer.from(r.javaHex, 'hex'), c.version);
        if (!isDeepDefault(ours, c.value)) fail(`our decoding of Java's bytes differs`);
      } catch (e) {
        fail(`our decoder threw on Java's bytes: ${String(e)}`);
      }
    }
  } else if (c.kind === 'unknownTags') {
    if (c.ourError) return [`${at}: our encoder threw ${String(c.ourError)}`];
    if (r.readError) fail(`Java cannot read our bytes with unknown tagged fields: ${r.readError}`);
    else if (r.reHex !== c.ourHex)
      fail(
        `Java did not write the unknown tagged fields back as we did:\n  ours ${c.ourHex}\n  Java ${r.reHex}`,
      );
    const decoded = codec.decode(Buffer.from(c.ourHex!, 'hex'), c.version);
    if (!isDeepDefault(decoded, c.value)) fail('our decoder lost unknown tagged fields');
  } else {
    // A field the version lacks: Java refuses to write it unless ignorable (then drops it).
    const javaRefused = r.writeError !== undefined && /UnsupportedVersion/.test(r.writeError);
    if (r.jsonError) fail(`Java could not read the JSON: ${r.jsonError}`);
    const weRefused = c.ourError instanceof UnsupportedVersionError;
    if (c.ourError && !weRefused) fail(`our encoder threw ${String(c.ourError)}`);
    if (javaRefused !== weRefused) {
      fail(
        `Java ${javaRefused ? 'refused' : 'accepted'} (${r.writeError ?? r.javaHex}), we ${weRefused ? 'refused' : 'accepted'}`,
      );
    }
    if (!javaRefused && !weRefused && r.javaHex !== c.ourHex)
      fail(`bytes differ\n  ours ${c.ourHex}\n  Java ${r.javaHex}`);
    if (weRefused && !String(c.ourError).includes(c.field!.camel))
      fail(`our error does not name the field: ${String(c.ourError)}`);
  }
  return problems;
}

describe('generated codecs against the Java client (kafka-clients 4.1.1)', () => {
  for (const def of definitions) {
    if (versionsOf(def).length === 0) continue;
    it(`${def.name} v${def.validVersions.lo}-${def.validVersions.hi}`, () => {
      const problems: string[] = [];
      let checked = 0;
      cases.forEach((c, i) => {
        if (c.def !== def) return;
        checked++;
        problems.push(...check(c, results[i]!));
      });
      expect(checked).toBeGreaterThan(0);
      expect(problems.slice(0, 5)).toEqual([]);
    });
  }

  it('covers every definition that has versions', () => {
    const covered = new Set(cases.map((c) => c.def.name));
    const withVersions = definitions.filter((d) => versionsOf(d).length > 0).map((d) => d.name);
    expect(withVersions.filter((n) => !covered.has(n))).toEqual([]);
    expect(definitions).toHaveLength(197);
  });

  it('fails loudly on every truncation of a message', () => {
    let truncations = 0;
    const seen = new Set<string>();
    for (const c of cases) {
      const key = `${c.def.name}/${c.version}`;
      if (c.kind !== 'random' || c.ourHex === null || seen.has(key) || c.ourHex.length > 600)
        continue;
      seen.add(key);
      const bytes = Buffer.from(c.ourHex, 'hex');
      for (let cut = 0; cut < bytes.length; cut++) {
        truncations++;
        expect(() => codecOf(c.def).decode(bytes.subarray(0, cut), c.version)).toThrow(
          MalformedMessageError,
        );
      }
    }
    console.log(
      `kafka-protocol: ${truncations} truncations over ${seen.size} message versions all refused`,
    );
  });
});

describe("Kafka's error codes", () => {
  it('match the Errors enum of kafka-clients 4.1.1', async () => {
    const output = JSON.parse(await runPeer('CodecCheck', { input: '{"errors":true}' })) as {
      errors: { code: string; name: string; retriable: boolean; message: string }[];
    };
    const java = output.errors.map((e) => ({ ...e, code: Number(e.code) }));
    expect([...errorCodes.values()]).toEqual(java);
  }, 120_000);
});

describe('frames against the Java client', () => {
  it('Java reads the headers and bodies of our request and response frames', async () => {
    const frames = [
      {
        api: apis.ApiVersions,
        version: 3,
        request: encodeRequestFrame(
          apis.ApiVersions,
          3,
          { correlationId: 11, clientId: 'sw' },
          {
            clientSoftwareName: 'streamwright',
            clientSoftwareVersion: '0.1.0',
          },
        ),
        response: encodeResponseFrame(apis.ApiVersions, 3, 11, { errorCode: 0, apiKeys: [] }),
      },
      {
        api: apis.Metadata,
        version: 12,
        request: encodeRequestFrame(
          apis.Metadata,
          12,
          { correlationId: 12, clientId: null },
          {
            topics: null,
            allowAutoTopicCreation: false,
            includeTopicAuthorizedOperations: false,
          },
        ),
        response: encodeResponseFrame(apis.Metadata, 12, 12, {
          brokers: [],
          controllerId: 1,
          topics: [],
        }),
      },
      {
        api: apis.Produce,
        version: 8,
        request: encodeRequestFrame(
          apis.Produce,
          8,
          { correlationId: -5, clientId: 'ü' },
          {
            acks: -1,
            timeoutMs: 1000,
            topicData: [],
          },
        ),
        response: encodeResponseFrame(apis.Produce, 8, -5, { responses: [] }),
      },
    ];
    const split = (frame: Buffer, headerLength: (r: Reader) => void) => {
      const r = new Reader(frame, 4);
      headerLength(r);
      return [frame.subarray(4, r.pos), frame.subarray(r.pos)] as const;
    };
    const requestCases = frames.map((f) => {
      const hv = f.api.requestHeaderVersion(f.version);
      const [header, body] = split(f.request, (r) => messages.RequestHeader.decodeFrom(r, hv));
      return [
        { message: 'RequestHeader', version: hv, hex: hex(header) },
        { message: `${f.api.name}Request`, version: f.version, hex: hex(body) },
      ];
    });
    const responseCases = frames.map((f) => {
      const hv = f.api.responseHeaderVersion(f.version);
      const [header, body] = split(f.response, (r) => messages.ResponseHeader.decodeFrom(r, hv));
      return [
        { message: 'ResponseHeader', version: hv, hex: hex(header) },
        { message: `${f.api.name}Response`, version: f.version, hex: hex(body) },
      ];
    });
    const all = [...requestCases.flat(), ...responseCases.flat()];
    const output = JSON.parse(
      await runPeer('CodecCheck', { input: JSON.stringify({ cases: all }) }),
    ) as { results: JavaResult[] };
    output.results.forEach((r, i) => {
      expect(r.readError, `${all[i]!.message}`).toBeUndefined();
      expect(r.reHex).toBe(all[i]!.hex);
    });
    const headers = output.results.filter((_, i) => all[i]!.message === 'RequestHeader');
    expect(headers.map((h) => h.parsedJson)).toEqual([
      { requestApiKey: '18', requestApiVersion: '3', correlationId: '11', clientId: 'sw' },
      { requestApiKey: '3', requestApiVersion: '12', correlationId: '12', clientId: null },
      { requestApiKey: '0', requestApiVersion: '8', correlationId: '-5', clientId: 'ü' },
    ]);
    // ApiVersions answers with header v0 even at v3 (KIP-511); Metadata v12 with v1.
    expect(all.filter((c) => c.message === 'ResponseHeader').map((c) => c.version)).toEqual([
      0, 1, 0,
    ]);
    for (const f of frames) {
      expect(decodeRequestFrame(f.request).apiKey).toBe(f.api.apiKey);
      expect(decodeResponseFrame(f.api, f.version, f.response).correlationId).toBe(
        responseCorrelationId(f.response),
      );
    }
  }, 120_000);
});
