// The client's one door to the generated protocol layer (@streamwright/kafka-protocol): request
// frames out, response frames in, and Kafka's error codes as the client's errors. Only the APIs
// the client speaks (versions.ts) are reachable from here.
import {
  apis,
  decodeResponseFrame,
  encodeRequestFrame,
  errorCodes,
} from '@streamwright/kafka-protocol';
import { AUTHORIZATION_CODES, describeRefusal, operationOf } from './authorization.js';
import { KafkaApiError, KafkaAuthorizationError, type ErrorPlace } from './errors.js';
import type { ClientApi } from './versions.js';

/** What a request of `A` takes (fields a version lacks, or with defaults, may be left out). */
export type RequestOf<A extends ClientApi> = Parameters<(typeof apis)[A]['encodeRequest']>[0];
export type ResponseOf<A extends ClientApi> = ReturnType<(typeof apis)[A]['decodeResponse']>;

export function apiKeyOf(api: ClientApi): number {
  return apis[api].apiKey;
}

/** A request's whole frame (size prefix, header, body), ready for the socket. */
export function encodeRequest<A extends ClientApi>(
  api: A,
  version: number,
  correlationId: number,
  clientId: string,
  body: RequestOf<A>,
): Buffer {
  return encodeRequestFrame(
    apis[api] as never,
    version,
    { correlationId, clientId },
    body as never,
  );
}

/** The body of a response frame (size prefix included) to a request of `api` at `version`. */
export function decodeResponse<A extends ClientApi>(
  api: A,
  version: number,
  frame: Uint8Array,
): ResponseOf<A> {
  return decodeResponseFrame(apis[api] as never, version, frame).body as ResponseOf<A>;
}

/** Kafka's name of an error code (e.g. 6 → NOT_LEADER_OR_FOLLOWER). */
export function errorName(code: number): string {
  return errorCodes.get(code)?.name ?? `error code ${code}`;
}

/** Where an error applies and, for authorisation failures, who asked what. */
export interface ErrorContext extends ErrorPlace {
  /** The request that met the error: says which operation an authorisation failure refused. */
  api?: ClientApi;
  /** The client's principal as the broker names it (KafkaCluster#principal). */
  principal?: string;
}

/**
 * The client's error for a non-zero error code: Kafka's name, whether a retry may help (Kafka's
 * own classification), and where it applies. An authorisation failure becomes a
 * KafkaAuthorizationError naming the operation (from `api`), the resource and the principal.
 */
export function protocolError(
  code: number,
  context?: ErrorContext,
  message?: string,
): KafkaApiError {
  const known = errorCodes.get(code);
  const name = known?.name ?? `error code ${code}`;
  const { api, principal, ...where } = context ?? {};
  const place: ErrorPlace | undefined = context === undefined ? undefined : where;
  const resource = AUTHORIZATION_CODES.get(code);
  if (resource !== undefined) {
    const refused = {
      resource,
      resourceName:
        (resource === 'topic'
          ? where.topic
          : resource === 'group'
            ? where.group
            : resource === 'transactional id'
              ? where.transactionalId
              : 'kafka-cluster') ?? '(unknown)',
      operation: api === undefined ? undefined : operationOf(api, resource),
      principal: principal ?? 'this client',
    };
    return new KafkaAuthorizationError(
      name,
      code,
      describeRefusal(refused, name),
      place,
      refused.resource,
      refused.resourceName,
      refused.operation,
      refused.principal,
    );
  }
  const at =
    where.topic !== undefined
      ? ` (${where.topic}${where.partition !== undefined ? `-${where.partition}` : ''})`
      : where.group !== undefined
        ? ` (group ${where.group})`
        : where.transactionalId !== undefined
          ? ` (transactional id ${where.transactionalId})`
          : '';
  return new KafkaApiError(
    name,
    code,
    known?.retriable ?? false,
    `${name}${at}: ${message ?? known?.message ?? 'the broker answered with this error'}`,
    place,
  );
}
