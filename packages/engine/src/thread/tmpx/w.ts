import { SCHEMA_VERSION } from '@streamwright/topology-model';
import { parentPort } from 'node:worker_threads';
const x: number = SCHEMA_VERSION;
parentPort!.postMessage({ x, url: import.meta.url });
