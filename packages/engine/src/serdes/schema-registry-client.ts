// A client of the Confluent Schema Registry REST API (the API Confluent's registry serves, and
// Apicurio Registry's compatibility API under /apis/ccompat/v7): register a schema under a
// subject, look its id up, fetch a subject's latest version and a schema by id. Every answer is
// cached for the life of the process, as Confluent's CachedSchemaRegistryClient does (ids never
// change meaning; a subject's latest version is kept until restart, as latest.cache.ttl.sec's
// default -1 does).
import { syncHttp } from './sync-http.js';

const CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';

export interface RegisteredSchema {
  id: number;
  /** The schema's JSON text as the registry holds it. */
  schema: string;
}

/** A registry that answered with an error (its HTTP status and Confluent error_code). */
export class SchemaRegistryError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errorCode: number | undefined,
  ) {
    super(message);
    this.name = 'SchemaRegistryError';
  }
}

export class SchemaRegistryClient {
  readonly #urls: string[];
  readonly #timeoutMs: number;
  readonly #ids = new Map<string, number>();
  readonly #byId = new Map<number, string>();
  readonly #latest = new Map<string, RegisteredSchema>();

  /** `urls`: one base URL or several separated by commas (tried in order when one is down). */
  constructor(urls: string, timeoutMs = 30_000) {
    this.#urls = urls
      .split(',')
      .map((u) => u.trim().replace(/\/+$/, ''))
      .filter((u) => u !== '');
    if (this.#urls.length === 0) throw new Error('schema registry url is empty');
    this.#timeoutMs = timeoutMs;
  }

  /**
   * The id of `schema` under `subject`: registered there first when `register` (POST
   * /subjects/{subject}/versions, a no-op for a schema the subject has), else looked up (POST
   * /subjects/{subject}), which fails when the subject does not have it.
   */
  idOf(subject: string, schema: string, register: boolean): number {
    const cacheKey = `${register ? 'r' : 'l'}\u0000${subject}\u0000${schema}`;
    const known = this.#ids.get(cacheKey);
    if (known !== undefined) return known;
    const path = `/subjects/${encodeURIComponent(subject)}${register ? '/versions' : ''}`;
    const answer = this.#call('POST', path, JSON.stringify({ schema }), () =>
      register
        ? `registering a schema under subject ${subject}`
        : `looking up the schema under subject ${subject} (auto.register.schemas is false, so it must be registered already)`,
    ) as { id?: unknown };
    const id = numberField(answer.id, 'id', path);
    this.#ids.set(cacheKey, id);
    this.#byId.set(id, schema);
    return id;
  }

  /** The latest version of `subject` (GET /subjects/{subject}/versions/latest). */
  latest(subject: string): RegisteredSchema {
    const known = this.#latest.get(subject);
    if (known !== undefined) return known;
    const path = `/subjects/${encodeURIComponent(subject)}/versions/latest`;
    const answer = this.#call(
      'GET',
      path,
      undefined,
      () => `fetching the latest version of subject ${subject} (use.latest.version)`,
    ) as { id?: unknown; schema?: unknown; schemaType?: unknown };
    checkAvro(answer.schemaType, path);
    const found = { id: numberField(answer.id, 'id', path), schema: stringField(answer, path) };
    this.#latest.set(subject, found);
    this.#byId.set(found.id, found.schema);
    return found;
  }

  /** The schema with id `id` (GET /schemas/ids/{id}). */
  schemaById(id: number): string {
    const known = this.#byId.get(id);
    if (known !== undefined) return known;
    const path = `/schemas/ids/${id}`;
    const answer = this.#call(
      'GET',
      path,
      undefined,
      () => `fetching the writer schema with id ${id}`,
    ) as { schema?: unknown; schemaType?: unknown };
    checkAvro(answer.schemaType, path);
    const schema = stringField(answer, path);
    this.#byId.set(id, schema);
    return schema;
  }

  #call(method: 'GET' | 'POST', path: string, body: string | undefined, what: () => string) {
    let unreachable: Error | undefined;
    for (const base of this.#urls) {
      let response;
      try {
        response = syncHttp({
          method,
          url: base + path,
          body,
          headers: { 'content-type': CONTENT_TYPE, accept: CONTENT_TYPE },
          timeoutMs: this.#timeoutMs,
        });
      } catch (error) {
        unreachable = error as Error;
        continue;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(response.body);
      } catch {
        parsed = undefined;
      }
      if (response.status >= 200 && response.status < 300 && isObject(parsed)) return parsed;
      const detail = isObject(parsed) ? parsed : {};
      const code = typeof detail.error_code === 'number' ? detail.error_code : undefined;
      const message =
        typeof detail.message === 'string' ? detail.message : response.body.slice(0, 300);
      throw new SchemaRegistryError(
        `schema registry ${base}: ${what()} failed: HTTP ${response.status}${code === undefined ? '' : ` (error ${code})`}: ${message}`,
        response.status,
        code,
      );
    }
    throw new SchemaRegistryError(
      `schema registry ${this.#urls.join(', ')}: ${what()} failed: ${unreachable?.message ?? 'unreachable'}`,
      0,
      undefined,
    );
  }
}

// One client per URL list, so every serde of a process shares its caches (as Java's serdes
// share one client per configuration).
const clients = new Map<string, SchemaRegistryClient>();

export function schemaRegistryClient(urls: string): SchemaRegistryClient {
  let client = clients.get(urls);
  if (client === undefined) clients.set(urls, (client = new SchemaRegistryClient(urls)));
  return client;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function numberField(v: unknown, name: string, path: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v))
    throw new Error(`schema registry answer to ${path} has no integer "${name}"`);
  return v;
}

function stringField(answer: { schema?: unknown }, path: string): string {
  if (typeof answer.schema !== 'string')
    throw new Error(`schema registry answer to ${path} has no "schema" text`);
  return answer.schema;
}

function checkAvro(schemaType: unknown, path: string): void {
  // Confluent leaves schemaType out for Avro, its first and default format.
  if (schemaType !== undefined && schemaType !== 'AVRO')
    throw new Error(
      `schema registry answer to ${path} is a ${String(schemaType)} schema, not Avro`,
    );
}
