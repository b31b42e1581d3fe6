// Opens a stream thread's own clients inside its worker from the description the main thread's
// backend gave (Backend#workerClients): one opener per kind of description, so the worker side
// depends on no backend in particular and a new kind that is not listed fails the typecheck here.
import type { BackendHealth, WorkerClients, WorkerClientsInit } from '../backend-spi.js';
import { openWorkerClients as openKafkaClients } from './kafka/worker-clients.js';

export type WorkerClientsOpener = (
  init: WorkerClientsInit,
  partitionsOf: (topic: string) => Promise<number>,
  onHealth?: (health: BackendHealth) => void,
  logger?: { warn(obj: object, msg?: string): void },
) => WorkerClients;

const OPENERS = {
  kafka: openKafkaClients,
} satisfies Record<WorkerClientsInit['kind'], WorkerClientsOpener>;

export const openWorkerClients: WorkerClientsOpener = (init, ...rest) =>
  OPENERS[init.kind](init, ...rest);
