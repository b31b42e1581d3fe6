// @streamwright/runtime. The web app imports only the `AppRouter` type from here.
export type { AppRouter } from './router/index.js';
export { appRouter } from './router/index.js';
export { startRuntime, type Runtime, type RuntimeOptions } from './runtime.js';
export { startServer, type RunningServer, type ServerOptions } from './http/server.js';
export { RuntimeService } from './service/runtime-service.js';
export type { AppView, DeployResult, LiveView } from './service/runtime-service.js';
export type { ProduceRequest, ReadRecord, ReadRequest } from './service/topic-service.js';
export { RUNTIME_ERRORS, RuntimeError, type RuntimeErrorCode } from './errors.js';
export type { InputIssue } from './trpc.js';
export { toOpenMetrics } from './http/openmetrics.js';
export { VERSION } from './version.js';
export { main } from './cli/main.js';
