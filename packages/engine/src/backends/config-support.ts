// What each backend applies of an application's config, known without opening one (for
// `streamwright validate --backend`): one entry per Backend#kind, so a new kind that is not
// listed fails the typecheck here.
import type { Backend } from '../backend-spi.js';
import { embeddedAppliesTopicConfig } from './embedded/index.js';
import { kafkaAppliesClientConfig } from './kafka/client-configs.js';

export type ConfigSupport = Pick<Backend, 'kind' | 'appliesClientConfig' | 'appliesTopicConfig'>;

export const configSupportByKind = {
  embedded: { kind: 'embedded', appliesTopicConfig: embeddedAppliesTopicConfig },
  kafka: { kind: 'kafka', appliesClientConfig: kafkaAppliesClientConfig },
} as const satisfies { [K in Backend['kind']]: ConfigSupport & { kind: K } };
