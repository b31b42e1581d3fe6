import type { SerdeName } from '@streamwright/topology-model';
import { bytesSerde } from './bytes-serde.js';
import { jsonSerde } from './json-serde.js';
import { longSerde } from './long-serde.js';
import type { Serde } from './serde.js';
import { stringSerde } from './string-serde.js';

export type { Serde } from './serde.js';
export { bytesSerde, jsonSerde, longSerde, stringSerde };

const serdes: Record<SerdeName, Serde<unknown>> = {
  string: stringSerde as Serde<unknown>,
  json: jsonSerde,
  bytes: bytesSerde as Serde<unknown>,
  long: longSerde as Serde<unknown>,
};

export function getSerde(name: SerdeName): Serde<unknown> {
  const serde = serdes[name];
  if (!serde) throw new Error(`unknown serde ${String(name)}`);
  return serde;
}
