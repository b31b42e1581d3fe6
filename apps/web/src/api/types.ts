// The runtime's API shapes, inferred from its router type (the only thing web imports from it).
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@streamwright/runtime';

export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type RouterInputs = inferRouterInputs<AppRouter>;

export type AppView = RouterOutputs['app']['status'];
export type AppStatus = NonNullable<AppView['status']>;
export type TaskStatus = AppStatus['tasks'][number];
export type ProcessingError = AppStatus['errors'][number];
export type DeploymentIdentity = NonNullable<AppView['deployment']>;
export type LiveView = RouterOutputs['metrics'] extends AsyncIterable<infer T> ? T : never;
export type TopicInfo = RouterOutputs['topics']['list'][number];
export type ReadRecord = RouterOutputs['topics']['read'][number];
export type ProduceInput = RouterInputs['topics']['produce'];
export type ServerIssue = Extract<RouterOutputs['app']['deploy'], { ok: false }>['errors'][number];
