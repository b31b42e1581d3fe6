import type { AnyApi, DecodedRequest } from '@streamwright/kafka-protocol';
import type { ListenerContext, RequestScope } from '../context.js';

/** One served API: its versions and the handler that answers a decoded request. */
export interface Handler {
  api: AnyApi;
  min: number;
  max: number;
  /** The response body, or null when none is sent (Produce with acks=0). */
  handle(
    ctx: ListenerContext,
    req: DecodedRequest,
    scope: RequestScope,
  ): Promise<object | null> | object | null;
}

/** A served API at Kafka 4.1.1's versions from `min`, up to `max` or its latest stable one. */
export function served(
  api: AnyApi,
  handle: Handler['handle'],
  min?: number,
  max?: number,
): Handler {
  const stableMax = api.latestVersionUnstable ? api.maxVersion - 1 : api.maxVersion;
  return {
    api,
    min: Math.max(api.minVersion, min ?? api.minVersion),
    max: Math.min(stableMax, max ?? stableMax),
    handle,
  };
}
